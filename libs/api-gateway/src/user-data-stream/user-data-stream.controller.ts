import { Controller, Delete, HttpCode, Inject, Post, Put, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { PrivateEndpoints } from '../auth/private-endpoint';
import type { PrivateEndpointSpec } from '../auth/private-endpoint';
import { UserDataStreamService } from './user-data-stream.service';

/** API-DECISIONS.md: the header and `read` are needed; timestamp and recvWindow are checked; a signature is verified when sent. */
const streamEndpoint: PrivateEndpointSpec = { weight: 1, permission: 'read', signatureOptional: true };

const stampQuery = [
  { name: 'timestamp', required: true, description: 'ms since the epoch; within recvWindow of the server clock', type: 'integer' as const },
  { name: 'recvWindow', description: 'ms, default 5000, at most 60000', type: 'integer' as const },
  { name: 'signature', description: 'optional here; verified when sent (hex HMAC-SHA256 of the raw query string followed by the raw body)' },
];
const listenKeyQuery = [{ name: 'listenKey', required: true, description: 'the key POST returned (60 characters)' }, ...stampQuery];
const emptySchema = z.object({}).strict();

/** listenKeys of the user data stream (spec 4.4); the WebSocket /openapi/ws/<listenKey> is user-stream's. */
@ApiTags('private: user data stream')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1/userDataStream')
export class UserDataStreamController {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(UserDataStreamService) private readonly streams: UserDataStreamService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Start a user data stream (or renew the API key\'s live one)',
    description: 'One live listenKey per API key, valid 60 minutes. Connect to WebSocket /openapi/ws/<listenKey>.',
    weight: 1,
    ok: z.object({ listenKey: z.string().regex(/^[A-Za-z0-9]{60}$/) }).strict(),
    query: stampQuery,
  })
  open(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ listenKey: string }> {
    return this.endpoints.run(request, reply, streamEndpoint, (ctx) => this.streams.open(ctx));
  }

  @Put()
  @ApiEndpoint({ summary: 'Keep a listenKey alive for 60 more minutes', description: '-1125 for an unknown or expired key, -2015 for another API key\'s.', weight: 1, ok: emptySchema, query: listenKeyQuery })
  keepAlive(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, never>> {
    return this.endpoints.run(request, reply, streamEndpoint, (ctx) => this.streams.keepAlive(ctx));
  }

  @Delete()
  @ApiEndpoint({ summary: 'Close a user data stream and every socket on it', description: '-1125 for an unknown or expired key, -2015 for another API key\'s.', weight: 1, ok: emptySchema, query: listenKeyQuery })
  close(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, never>> {
    return this.endpoints.run(request, reply, streamEndpoint, (ctx) => this.streams.close(ctx));
  }
}
