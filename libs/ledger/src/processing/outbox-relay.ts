import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type EventLog, OutboxRelay as Relay } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './ledger.tokens';

/** Any constant: the advisory lock that lets one ledger relay at a time publish, keeping per-user order. */
const RELAY_LOCK = 7_236_001;

/** The ledger's outbox relay (ledger.events, order.commands, wallet.commands), started and stopped with the app. */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay;

  constructor(
    @Inject(LEDGER_DATA_SOURCE) dataSource: DataSource,
    @Inject(LEDGER_SCHEMA) schema: string,
    @Inject(EVENT_LOG) log: EventLog,
    @Inject(LOGGER) logger: Logger,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.relay = new Relay({ dataSource, schema, log, logger, metrics, service: 'ledger', lockId: RELAY_LOCK });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  wake(): void {
    this.relay.wake();
  }
}
