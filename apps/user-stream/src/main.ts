import { UserStreamModule } from '@exchange/user-stream';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'user-stream', module: UserStreamModule }).catch(exitOnFailure('user-stream'));
