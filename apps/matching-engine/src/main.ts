import { MatchingEngineModule } from '@exchange/matching-engine';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'matching-engine', module: MatchingEngineModule }).catch(exitOnFailure('matching-engine'));
