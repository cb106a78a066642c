import { Controller, Inject } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { PrivateRoute, Signed, type SignedRequest } from '../auth/private-route';
import { UserDataStreamEndpoints as E } from './user-data-stream.endpoints';
import { UserDataStreamService } from './user-data-stream.service';

/** listenKeys of the user data stream (spec 4.4); the WebSocket /openapi/ws/<listenKey> is user-stream's. */
@ApiTags('private: user data stream')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1/userDataStream')
export class UserDataStreamController {
  constructor(@Inject(UserDataStreamService) private readonly streams: UserDataStreamService) {}

  @PrivateRoute(E.open)
  open(@Signed() request: SignedRequest<typeof E.open>): Promise<{ listenKey: string }> {
    return this.streams.open(request);
  }

  @PrivateRoute(E.keepAlive)
  keepAlive(@Signed() request: SignedRequest<typeof E.keepAlive>): Promise<Record<string, never>> {
    return this.streams.keepAlive(request);
  }

  @PrivateRoute(E.close)
  close(@Signed() request: SignedRequest<typeof E.close>): Promise<Record<string, never>> {
    return this.streams.close(request);
  }
}
