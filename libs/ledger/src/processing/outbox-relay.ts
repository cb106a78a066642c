import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type EventLog, type OutgoingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { Counter } from 'prom-client';
import type { DataSource } from 'typeorm';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './ledger.tokens';

const RELAY_BATCH = 2000;
const IDLE_POLL_MS = 200;
/** Any constant: the advisory lock that lets one relay at a time publish, keeping per-user order. */
const RELAY_LOCK = 7_236_001;

/**
 * Publishes what the ledger committed to its outbox, in id order, then deletes it. A crash after
 * publishing and before deleting publishes again: consumers deduplicate by event id.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly published: Counter<string>;

  constructor(
    @Inject(LEDGER_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(LEDGER_SCHEMA) private readonly schema: string,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.published = metrics.counter('ledger_outbox_published_total', 'Ledger events published from the outbox');
    metrics.gauge('ledger_outbox_backlog', 'Rows waiting in the outbox', [], async (backlog) => {
      const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM "${this.schema}".outbox`).catch(() => [{ n: -1 }]);
      backlog.set(row?.n ?? -1);
    });
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Called after a batch commits, so its events leave at once rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let published = 0;
      try {
        published = await this.relayOnce();
      } catch (error) {
        this.logger.error({ err: error }, 'outbox relay failed; retrying');
      }
      if (published === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_POLL_MS);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private async relayOnce(): Promise<number> {
    const s = `"${this.schema}"`;
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [RELAY_LOCK]);
      if (!locked) return 0;
      const rows: { id: string; topic: string; key: string; value: string; headers: Record<string, string> }[] = await manager.query(
        `SELECT id, topic, key, value, headers FROM ${s}.outbox ORDER BY id LIMIT ${RELAY_BATCH}`,
      );
      if (rows.length === 0) return 0;
      const records: OutgoingRecord[] = rows.map((r) => ({ topic: r.topic, key: r.key, value: r.value, headers: r.headers }));
      await this.log.publish(records);
      this.published.inc(records.length);
      await manager.query(`DELETE FROM ${s}.outbox WHERE id <= $1`, [rows[rows.length - 1]!.id]);
      return rows.length;
    });
  }
}
