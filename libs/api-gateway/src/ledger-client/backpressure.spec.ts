import { randomUUID } from 'node:crypto';
import type { LedgerCommand } from '@exchange/contracts';
import type { Consumer, EventLog, OutgoingRecord } from '@exchange/messaging';
import { ApiError, type Config, createLogger, loadConfig, Metrics } from '@exchange/platform';
import { PendingReplies } from '../replies/pending-replies';
import { LedgerClient } from './ledger-client';
import { PipelineLag } from './pipeline-lag';

/** A log whose commands are never answered, with offsets the test sets: a stalled pipeline. */
class StalledLog {
  published: OutgoingRecord[] = [];
  ends: Record<string, number[]> = { 'ledger.commands': [0, 0], 'order.commands': [0] };
  committed: Record<string, number[]> = { 'ledger.commands': [0, 0], 'order.commands': [0] };
  async publish(records: readonly OutgoingRecord[]): Promise<void> {
    this.published.push(...records);
  }
  async consume(): Promise<Consumer> {
    return { stop: async () => undefined };
  }
  async endOffsets(topic: string): Promise<number[]> {
    return this.ends[topic] ?? [];
  }
  async committedOffsets(_group: string, topic: string): Promise<number[]> {
    return this.committed[topic] ?? [];
  }
}

const logger = createLogger('test', 'silent');
const transfer = (): LedgerCommand =>
  ({
    type: 'TransferFunds',
    v: 1,
    id: randomUUID(),
    ts: 1,
    payload: { userId: '1', transferId: '1', fromAccountId: '11', toAccountId: '13', asset: 'USDT', amount: '1' },
  }) as LedgerCommand;
const clientOf = (log: StalledLog, config: Config): LedgerClient =>
  new LedgerClient(log as unknown as EventLog, config, logger, new Metrics('test'), new PendingReplies(config));
const refusal = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof ApiError ? { code: error.code, status: error.httpStatus } : error),
  );

describe('gateway backpressure', () => {
  it('refuses a command at once with 503 / -1016 when the pending table is full, and publishes nothing for it', async () => {
    const log = new StalledLog();
    const client = clientOf(log, loadConfig({ MAX_PENDING_REQUESTS: '2', MAX_PIPELINE_LAG: '0' }));
    const waiting = [
      client.send(transfer(), { correlationId: undefined, timeoutMs: 60_000 }),
      client.send(transfer(), { correlationId: undefined, timeoutMs: 60_000 }),
    ];
    waiting.forEach((w) => w.catch(() => undefined));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await refusal(client.send(transfer(), { correlationId: undefined }))).toEqual({ code: -1016, status: 503 });
    expect(log.published).toHaveLength(2);
    await client.onApplicationShutdown();
  });

  it('refuses commands while the ledger and engine lag past the bound, and takes them again once they caught up', async () => {
    const log = new StalledLog();
    const client = clientOf(log, loadConfig({ MAX_PIPELINE_LAG: '100' }));
    const lag = (client as unknown as { pipelineLag: PipelineLag }).pipelineLag;
    log.ends = { 'ledger.commands': [80, 50], 'order.commands': [30] };
    log.committed = { 'ledger.commands': [20, 50], 'order.commands': [0] };
    expect(await lag.measure()).toBe(90);
    client.send(transfer(), { correlationId: undefined, timeoutMs: 60_000 }).catch(() => undefined);
    log.ends['order.commands'] = [41];
    expect(await lag.measure()).toBe(101);
    expect(await refusal(client.send(transfer(), { correlationId: undefined }))).toEqual({ code: -1016, status: 503 });
    log.committed = { 'ledger.commands': [80, 50], 'order.commands': [41] };
    await lag.measure();
    expect(lag.exceeded()).toBe(false);
    client.send(transfer(), { correlationId: undefined, timeoutMs: 60_000 }).catch(() => undefined);
    expect(log.published).toHaveLength(2);
    await client.onApplicationShutdown();
  });

  it('measures nothing and bounds nothing when the bound is 0', async () => {
    const log = new StalledLog();
    log.ends['ledger.commands'] = [1_000_000, 0];
    const lag = new PipelineLag(log as unknown as EventLog, 0, logger);
    await lag.measure();
    expect(lag.exceeded()).toBe(false);
  });
});
