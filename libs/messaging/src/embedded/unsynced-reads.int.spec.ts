import { mkdtempSync } from 'node:fs';
import { type FileHandle, open as openFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { isEventLogUnavailable } from '../event-log-errors';
import type { Consumer, IncomingRecord } from '../event-log.port';
import { EmbeddedEventLog } from './embedded-event-log';

const topics = ['input', 'decided', 'final'].map((name) => ({
  name,
  partitions: 1,
  key: 'userId' as const,
  config: {},
}));

/**
 * Holds every fdatasync of the journal until released, so a test can look at the log while a
 * step is written but not durable (what a slow disk shows for a few ms on every step).
 */
async function holdSyncs(dir: string): Promise<{ release: () => void; fail: (error: Error) => void }> {
  const probe = await openFile(join(dir, 'probe'), 'a');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = prototype.datasync;
  let gate!: { resolve: () => void; reject: (error: Error) => void };
  const held = new Promise<void>((resolve, reject) => (gate = { resolve, reject }));
  jest.spyOn(prototype, 'datasync').mockImplementation(async function (this: FileHandle) {
    await held;
    return original.call(this);
  });
  return { release: () => gate.resolve(), fail: (error) => gate.reject(error) };
}

/** A decider: each record of `from` becomes one of `to` with the value marked, committed atomically with the input. */
function decider(log: EmbeddedEventLog, from: string, to: string, readUnsynced: boolean): Promise<Consumer> {
  return log.consume({
    groupId: `decide-${from}`,
    topics: [from],
    fromBeginning: true,
    readUnsynced,
    eachBatch: async (batch) => ({
      emit: batch.records.map((r) => ({ topic: to, key: r.key, value: `${r.value}>${to}` })),
    }),
  });
}

function collect(
  log: EmbeddedEventLog,
  topic: string,
  seen: IncomingRecord[],
  readUnsynced = false,
): Promise<Consumer> {
  return log.consume({
    groupId: `collect-${topic}-${readUnsynced}`,
    topics: [topic],
    fromBeginning: true,
    readUnsynced,
    eachBatch: async (batch) => void seen.push(...batch.records),
  });
}

describe('embedded event log: consumers that read unsynced records', () => {
  afterEach(() => jest.restoreAllMocks());

  it('hands a chain of deciders each step while its fsync is in flight; the others see it only once durable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-unsynced-'));
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    await log.createTopics(topics);
    const plain: IncomingRecord[] = [];
    const early: IncomingRecord[] = [];
    const consumers = [
      await decider(log, 'input', 'decided', true),
      await decider(log, 'decided', 'final', true),
      await collect(log, 'final', early, true),
      await collect(log, 'final', plain),
    ];
    const syncs = await holdSyncs(dir);
    let acknowledged = false;
    const published = log.publish([{ topic: 'input', key: 'u1', value: 'order' }]).then(() => (acknowledged = true));

    // Both steps were decided from records no fsync has finished for: one sync will cover the chain.
    await waitFor(() => early.length === 1, 'the chain to reach a consumer of unsynced records');
    expect(early[0]!.value).toBe('order>decided>final');
    expect(plain).toEqual([]);
    expect(acknowledged).toBe(false);
    expect(await log.endOffsets('final')).toEqual([1]);

    syncs.release();
    await published;
    await waitFor(() => plain.length === 1, 'the durable record to reach the plain consumer');
    expect(plain[0]!.value).toBe('order>decided>final');
    for (const c of consumers) await c.stop();
    await log.close();

    // What the chain decided and committed is in the journal once: a restart decides nothing again.
    const reopened = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    expect(await reopened.committedOffsets('decide-input', 'input')).toEqual([1]);
    expect(await reopened.committedOffsets('decide-decided', 'decided')).toEqual([1]);
    const again = [
      await decider(reopened, 'input', 'decided', true),
      await decider(reopened, 'decided', 'final', true),
    ];
    await reopened.publish([{ topic: 'input', key: 'u1', value: 'next' }]);
    const values: string[] = [];
    await waitFor(async () => (await reopened.endOffsets('final'))[0] === 2, 'the next order through the chain');
    await reopened.read('final', 0, 0, async (batch) => void values.push(...batch.map((r) => r.value)));
    expect(values).toEqual(['order>decided>final', 'next>decided>final']);
    for (const c of again) await c.stop();
    await reopened.close();
  });

  it('refuses every later append once an fsync fails: steps already handed on cannot be taken back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-unsynced-fail-'));
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    await log.createTopics(topics);
    const syncs = await holdSyncs(dir);
    const first = log.publish([{ topic: 'input', key: 'u1', value: 'one' }]);
    const failure = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    syncs.fail(failure);

    const refused = (append: Promise<void>): Promise<boolean> => append.then(() => false, isEventLogUnavailable);
    expect(await refused(first)).toBe(true);
    expect(await refused(log.publish([{ topic: 'input', key: 'u1', value: 'two' }]))).toBe(true);
    await log.close();
  });
});
