import type { Logger, Metrics } from '@exchange/platform';
import type { Counter } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { EventLog, OutgoingRecord } from '../event-log.port';

const RELAY_BATCH = 2000;
const IDLE_POLL_MS = 200;

export interface OutboxRelayOptions {
  dataSource: DataSource;
  schema: string;
  log: EventLog;
  logger: Logger;
  metrics: Metrics;
  /** `<service>`: names the metrics (`<service>_outbox_published_total`, `<service>_outbox_backlog`). */
  service: string;
  /** Any constant per service: the advisory lock that lets one relay at a time publish, keeping per-key order. */
  lockId: number;
}

/**
 * Publishes what a service committed to its outbox, in id order, then deletes it. A crash after
 * publishing and before deleting publishes again: consumers deduplicate by message id.
 */
export class OutboxRelay {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** Set by a wake-up that came while a pass was running: that pass may have read the outbox before the batch committed. */
  private woken = false;
  private readonly published: Counter<string>;

  constructor(private readonly options: OutboxRelayOptions) {
    const { metrics, service, dataSource, schema } = options;
    this.published = metrics.counter(
      `${service}_outbox_published_total`,
      `${service}: records published from the outbox`,
    );
    metrics.gauge(`${service}_outbox_backlog`, `${service}: rows waiting in the outbox`, [], async (backlog) => {
      const [row] = await dataSource
        .query(`SELECT count(*)::int AS n FROM "${schema}".outbox`)
        .catch(() => [{ n: -1 }]);
      backlog.set(row?.n ?? -1);
    });
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Called after a batch commits, so its records leave at once rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let published = 0;
      this.woken = false;
      try {
        published = await this.relayOnce();
      } catch (error) {
        this.options.logger.error({ err: error, service: this.options.service }, 'outbox relay failed; retrying');
      }
      if (published === 0 && this.running && !this.woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_POLL_MS);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = undefined;
      }
    }
  }

  private async relayOnce(): Promise<number> {
    const s = `"${this.options.schema}"`;
    return this.options.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [this.options.lockId]);
      if (!locked) return 0;
      const rows: { id: string; topic: string; key: string; value: string; headers: Record<string, string> }[] =
        await manager.query(`SELECT id, topic, key, value, headers FROM ${s}.outbox ORDER BY id LIMIT ${RELAY_BATCH}`);
      if (rows.length === 0) return 0;
      const records: OutgoingRecord[] = rows.map((r) => ({
        topic: r.topic,
        key: r.key,
        value: r.value,
        headers: r.headers,
      }));
      await this.options.log.publish(records);
      this.published.inc(records.length);
      await manager.query(`DELETE FROM ${s}.outbox WHERE id <= $1`, [rows[rows.length - 1]!.id]);
      return rows.length;
    });
  }
}
