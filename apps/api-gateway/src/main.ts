import { runService } from '@exchange/bootstrap';
import { ApiGatewayModule } from '@exchange/api-gateway';

runService({ service: 'api-gateway', module: ApiGatewayModule, needsDatabase: true });
