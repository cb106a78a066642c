import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type EventLog, OutboxRelay } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { WALLET_DATA_SOURCE, WALLET_SCHEMA } from './wallet.tokens';

/** Any constant: one wallet relay at a time publishes, keeping per-user order. */
const RELAY_LOCK = 7_236_002;

/** Publishes the wallet's outbox (wallet.events, ledger.commands, wallet.commands of receivers). */
@Injectable()
export class WalletOutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly relay: OutboxRelay;

  constructor(
    @Inject(WALLET_DATA_SOURCE) dataSource: DataSource,
    @Inject(WALLET_SCHEMA) schema: string,
    @Inject(EVENT_LOG) log: EventLog,
    @Inject(LOGGER) logger: Logger,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.relay = new OutboxRelay({ dataSource, schema, log, logger, metrics, service: 'wallet', lockId: RELAY_LOCK });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}
