import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedEventLog } from '../embedded/embedded-event-log';
import type { Consumer, IncomingBatch } from '../event-log.port';
import { FenceTimeout, OffsetFence } from './offset-fence';

const topic = { name: 'fenced', partitions: 2, key: 'userId' as const, config: {} };

/** A read waits for the projection's group to pass what the topic held when the read arrived, and no longer. */
describe('OffsetFence', () => {
  let log: EmbeddedEventLog;
  let consumer: Consumer | undefined;

  beforeEach(async () => {
    log = await EmbeddedEventLog.open({ dir: mkdtempSync(join(tmpdir(), 'offset-fence-')), maintenanceIntervalMs: 0 });
    await log.createTopics([topic]);
  });
  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
    await log.close();
  });

  it('resolves at once on an empty topic, and once the group has committed what was there', async () => {
    const fence = new OffsetFence(log, { groupId: 'projection', topic: topic.name, timeoutMs: 30_000, pollMs: 1 });
    await fence.passed();
    await log.publish([
      { topic: topic.name, key: 'a', value: '1' },
      { topic: topic.name, key: 'b', value: '2' },
      { topic: topic.name, key: 'c', value: '3' },
    ]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const seen: IncomingBatch[] = [];
    consumer = await log.consume({
      groupId: 'projection',
      topics: [topic.name],
      fromBeginning: true,
      eachBatch: async (batch) => {
        await gate;
        seen.push(batch);
      },
    });
    let passed = false;
    const waiting = fence.passed().then(() => (passed = true));
    await new Promise((r) => setImmediate(r));
    expect(passed).toBe(false);
    release();
    await waiting;
    expect(seen.reduce((n, b) => n + b.records.length, 0)).toBe(3);
  });

  it('gives up with FenceTimeout when the group does not get there in time', async () => {
    await log.publish([{ topic: topic.name, key: 'a', value: '1' }]);
    const fence = new OffsetFence(log, { groupId: 'nobody', topic: topic.name, timeoutMs: 20, pollMs: 1 });
    await expect(fence.passed()).rejects.toBeInstanceOf(FenceTimeout);
  });
});
