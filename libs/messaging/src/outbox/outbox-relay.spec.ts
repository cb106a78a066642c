import { createLogger, Metrics } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import type { EventLog, OutgoingRecord } from '../event-log.port';
import { OutboxRelay } from './outbox-relay';

/** An outbox in memory, behind the three statements the relay sends in its transaction. */
class FakeOutbox {
  rows: { id: string; topic: string; key: string; value: string; headers: Record<string, string> }[] = [];
  /** Runs once, just after the relay's next SELECT read the outbox: a batch that commits in that instant. */
  afterNextSelect: (() => void) | undefined;

  readonly dataSource = {
    query: async (): Promise<unknown[]> => [{ n: this.rows.length }],
    transaction: async <T>(
      work: (manager: { query: (sql: string, params?: unknown[]) => Promise<unknown[]> }) => Promise<T>,
    ): Promise<T> =>
      work({
        query: async (sql: string, params?: unknown[]) => {
          if (sql.includes('pg_try_advisory_xact_lock')) return [{ locked: true }];
          if (sql.startsWith('SELECT')) {
            const seen = [...this.rows];
            const hook = this.afterNextSelect;
            this.afterNextSelect = undefined;
            hook?.();
            return seen;
          }
          if (sql.startsWith('DELETE')) this.rows = this.rows.filter((r) => Number(r.id) > Number(params![0]));
          return [];
        },
      }),
  } as unknown as DataSource;
}

describe('OutboxRelay', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  const settle = async (until: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !until(); i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('publishes a batch committed while it was reading the outbox at once, not at the next idle poll', async () => {
    const outbox = new FakeOutbox();
    const published: OutgoingRecord[] = [];
    const log = {
      publish: async (records: OutgoingRecord[]) => void published.push(...records),
    } as unknown as EventLog;
    const relay = new OutboxRelay({
      dataSource: outbox.dataSource,
      schema: 's',
      log,
      logger: createLogger('test', 'silent'),
      metrics: new Metrics('test'),
      service: 'test',
      lockId: 1,
    });
    // The first pass finds nothing; in that instant a batch commits its row and wakes the relay.
    outbox.afterNextSelect = () => {
      outbox.rows.push({ id: '1', topic: 't', key: 'k', value: 'v', headers: {} });
      relay.wake();
    };
    relay.start();
    // The idle poll's timer is fake and never fires here: only the wake-up can bring the row out.
    await settle(() => published.length > 0);
    expect(published.map((r) => r.value)).toEqual(['v']);
    const stopped = relay.stop();
    await jest.runOnlyPendingTimersAsync();
    await stopped;
  });
});
