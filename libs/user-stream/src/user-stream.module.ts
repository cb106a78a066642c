import { Module } from '@nestjs/common';

/** listenKeys and the WebSocket fan-out of executionReport and outboundAccountInfo. */
@Module({})
export class UserStreamModule {}
