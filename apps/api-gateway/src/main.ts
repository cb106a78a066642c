import { ApiGatewayModule } from '@exchange/api-gateway';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'api-gateway', module: ApiGatewayModule }).catch(exitOnFailure('api-gateway'));
