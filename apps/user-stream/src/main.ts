import { runService } from '@exchange/bootstrap';
import { UserStreamModule } from '@exchange/user-stream';

runService({ service: 'user-stream', module: UserStreamModule, needsDatabase: true });
