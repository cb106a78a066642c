import type { Server } from 'node:http';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { LedgerEventFeed } from './streaming/ledger-event-feed';
import { UserStreamSocketServer } from './sockets/user-stream-socket-server';

/**
 * Reads the ledger's events before accepting sockets (so a socket gets every event after it
 * opened), and on the way out says goodbye to the sockets before it stops reading.
 */
@Injectable()
export class UserStreamLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(LedgerEventFeed) private readonly feed: LedgerEventFeed,
    @Inject(UserStreamSocketServer) private readonly sockets: UserStreamSocketServer,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.feed.start();
    await this.sockets.attach(this.adapterHost.httpAdapter.getHttpServer() as Server);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.sockets.close();
    await this.feed.stop();
  }
}
