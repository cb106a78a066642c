import type * as Fs from 'node:fs';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { EmbeddedEventLog } from './embedded-event-log';

// A checkpoint makes every partition's segment files durable before its manifest lets the journal
// go. Those fsyncs take tens to hundreds of ms on a busy disk: they must neither hold the appends
// nor lose their place when they fail.

// The module object the log calls into (an `import * as` is a copy a spy would not reach).
const fs = jest.requireActual<typeof Fs>('node:fs');

const topic = { name: 'checkpointed', partitions: 4, key: 'userId' as const, config: {} };
const walOf = (dir: string): string =>
  (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { wal: string }).wal;
const record = (i: number) => ({ topic: topic.name, key: `user-${i}`, value: `${i}:${'x'.repeat(400)}` });

async function valuesOf(log: EmbeddedEventLog): Promise<string[]> {
  const values: string[] = [];
  for (let p = 0; p < topic.partitions; p++)
    await log.read(topic.name, p, 0, async (batch) => void values.push(...batch.map((r) => r.value.split(':')[0]!)));
  return values.sort((a, b) => Number(a) - Number(b));
}

describe('embedded event log checkpoints', () => {
  afterEach(() => jest.restoreAllMocks());

  it('acknowledges appends while the segments of a checkpoint are still being synced, and checkpoints once they are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-checkpoint-'));
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', walBytes: 16 * 1024, maintenanceIntervalMs: 0 });
    await log.createTopics([topic]);
    const firstWal = walOf(dir);
    let release!: () => void;
    const slowDisk = new Promise<void>((resolve) => (release = resolve));
    const realFsync = fs.fsync;
    const held = jest
      .spyOn(fs, 'fsync')
      .mockImplementation(
        ((fd: number, done: Fs.NoParamCallback) => void slowDisk.then(() => realFsync(fd, done))) as typeof Fs.fsync,
      );
    // Past the journal's checkpoint size: a checkpoint starts by syncing the segments.
    await log.publish(Array.from({ length: 50 }, (_, i) => record(i)));
    await waitFor(() => held.mock.calls.length > 0, 'the checkpoint to sync the segments');
    for (let i = 50; i < 60; i++) await log.publish([record(i)]);
    expect(walOf(dir)).toBe(firstWal);
    release();
    await waitFor(() => walOf(dir) !== firstWal, 'the checkpoint to name a new journal');
    await log.publish([record(60)]);
    await log.close();
    const reopened = await EmbeddedEventLog.open({ dir, maintenanceIntervalMs: 0 });
    expect(await valuesOf(reopened)).toEqual(Array.from({ length: 61 }, (_, i) => String(i)));
    await reopened.close();
  });

  it('keeps the journal when a segment cannot be synced, and syncs that segment at the next checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-checkpoint-'));
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    await log.createTopics([topic]);
    await log.publish(Array.from({ length: 20 }, (_, i) => record(i)));
    const firstWal = walOf(dir);
    const failing = jest
      .spyOn(fs, 'fsync')
      .mockImplementation(
        ((_fd: number, done: Fs.NoParamCallback) =>
          void setImmediate(() =>
            done(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })),
          )) as typeof Fs.fsync,
      );
    await expect(log.maintain()).rejects.toThrow('EIO');
    expect(walOf(dir)).toBe(firstWal);
    failing.mockRestore();
    const synced = jest.spyOn(fs, 'fsync');
    await log.maintain();
    // Every partition that was written to: its segment and its index.
    expect(synced.mock.calls.length).toBeGreaterThanOrEqual(2 * topic.partitions);
    expect(walOf(dir)).not.toBe(firstWal);
    await log.close();
    const reopened = await EmbeddedEventLog.open({ dir, maintenanceIntervalMs: 0 });
    expect(await valuesOf(reopened)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    await reopened.close();
  });
});
