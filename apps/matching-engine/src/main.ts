import { runService } from '@exchange/bootstrap';
import { MatchingEngineModule } from '@exchange/matching-engine';

runService({ service: 'matching-engine', module: MatchingEngineModule, needsDatabase: false });
