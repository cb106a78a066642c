import type { EventLog } from '@exchange/messaging';
import { createLogger } from '@exchange/platform';
import { LAG_POLL_MS, PipelineLag } from './pipeline-lag';

/** Offsets the test sets, and every request the checker sends for them. */
class CountingLog {
  requests = 0;
  ends: Record<string, number[]> = { 'ledger.commands': [0, 0], 'order.commands': [0] };
  committed: Record<string, number[]> = { 'ledger.commands': [0, 0], 'order.commands': [0] };
  async endOffsets(topic: string): Promise<number[]> {
    this.requests++;
    return [...(this.ends[topic] ?? [])];
  }
  async committedOffsets(_group: string, topic: string): Promise<number[]> {
    this.requests++;
    return [...(this.committed[topic] ?? [])];
  }
}

const logger = createLogger('test', 'silent');
const seconds = (n: number): Promise<void> => jest.advanceTimersByTimeAsync(n * LAG_POLL_MS);

describe('PipelineLag', () => {
  let log: CountingLog;
  let lag: PipelineLag;

  beforeEach(() => {
    jest.useFakeTimers();
    log = new CountingLog();
    lag = new PipelineLag(log as unknown as EventLog, 100, logger);
    lag.start();
  });

  afterEach(() => {
    lag.stop();
    jest.useRealTimers();
  });

  it('asks the broker nothing while no command comes', async () => {
    await seconds(30);
    expect(log.requests).toBe(0);
  });

  it('polls while commands come, at most once per interval, and stops once they stop and the pipeline is caught up', async () => {
    for (let i = 0; i < 50; i++) {
      lag.exceeded();
      await jest.advanceTimersByTimeAsync(LAG_POLL_MS / 10);
    }
    // 5 s of commands: a poll at the first, then one a second.
    expect(log.requests / 4).toBeGreaterThanOrEqual(5);
    expect(log.requests / 4).toBeLessThanOrEqual(6);
    await seconds(2);
    const afterLoad = log.requests;
    await seconds(30);
    expect(log.requests).toBe(afterLoad);
  });

  it('judges the first command after a pause by the last value and polls at once', async () => {
    log.ends = { 'ledger.commands': [300, 0], 'order.commands': [0] };
    expect(lag.exceeded()).toBe(false);
    await jest.advanceTimersByTimeAsync(0);
    expect(lag.current()).toBe(300);
    expect(lag.exceeded()).toBe(true);
  });

  it('follows a draining backlog down after the refused commands stop, so the refusal is lifted', async () => {
    log.ends = { 'ledger.commands': [300, 0], 'order.commands': [0] };
    lag.exceeded();
    await jest.advanceTimersByTimeAsync(0);
    expect(lag.exceeded()).toBe(true);
    // No command from here on: the ledger catches up, 100 records a second.
    for (const committed of [100, 200, 300]) {
      log.committed['ledger.commands'] = [committed, 0];
      await seconds(1);
    }
    expect(lag.current()).toBe(0);
    expect(lag.exceeded()).toBe(false);
  });

  it('keeps following a lag that does not reach 0 while no command comes', async () => {
    log.ends = { 'ledger.commands': [7, 0], 'order.commands': [0] };
    lag.exceeded();
    await seconds(3);
    const stuck = log.requests;
    log.committed['ledger.commands'] = [7, 0];
    await seconds(2);
    expect(log.requests).toBeGreaterThan(stuck);
    expect(lag.current()).toBe(0);
    const caughtUp = log.requests;
    await seconds(30);
    expect(log.requests).toBe(caughtUp);
  });
});
