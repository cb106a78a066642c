import type * as Fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { EmbeddedEventLog, type EmbeddedEventLogOptions } from './embedded-event-log';
import { indexFileName } from './segment-files';
import { offsetsInFolder } from './segment-files-on-disk';
import type { Manifest } from './segment-manifest';

// Compaction reads and rewrites whole segments of snapshots (16 MiB each by default): planned while
// appends go on, switched in one short step. Records appended meanwhile may supersede a survivor,
// and retention may drop a planned segment before the switch.

// The module object the log calls into (an `import * as` is a copy a spy would not reach).
const fs = jest.requireActual<typeof Fs>('node:fs');

const TOPIC = 'snapshots';
const KEYS = 10;
const PADDING = 'x'.repeat(100);
const record = (i: number, key = `k${i % KEYS}`) => ({ topic: TOPIC, key, value: `${i}:${PADDING}` });
const folderOf = (dir: string): string => join(dir, 'segments', `${TOPIC}-0`);
const listed = (dir: string): Manifest['segments'][string] =>
  (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest).segments[`${TOPIC}/0`] ?? [];
const open = (dir: string, options: Partial<EmbeddedEventLogOptions> = {}): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({ dir, indexIntervalBytes: 512, maintenanceIntervalMs: 0, ...options });

async function publishRange(log: EmbeddedEventLog, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 20)
    await log.publish(Array.from({ length: Math.min(20, to - i) }, (_, j) => record(i + j)));
}

async function recordsOf(log: EmbeddedEventLog): Promise<{ offset: number; key: string; value: string }[]> {
  const out: { offset: number; key: string; value: string }[] = [];
  await log.read(
    TOPIC,
    0,
    0,
    async (batch) => void out.push(...batch.map((r) => ({ offset: r.offset, key: r.key, value: r.value }))),
  );
  return out;
}

/** Holds every asynchronous file read (what a compaction's plan reads segments with) until released. */
function holdReads(): { release: () => void; held: () => boolean } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const realRead = fs.read;
  const spy = jest
    .spyOn(fs, 'read')
    .mockImplementation(
      ((...args: unknown[]) =>
        void released.then(() => (realRead as (...a: unknown[]) => void)(...args))) as unknown as typeof Fs.read,
    );
  return { release, held: () => spy.mock.calls.length > 0 };
}

/** The files in the partition's folder that the manifest does not name. */
const strays = (dir: string): string[] => {
  const named = new Set(listed(dir).flatMap((s) => [s.file, indexFileName(s.file)]));
  return readdirSync(folderOf(dir)).filter((f) => !named.has(f));
};

describe('embedded event log: compaction planned off the append path', () => {
  afterEach(() => jest.restoreAllMocks());

  it('acknowledges appends while a compaction is planned; each key keeps its latest record, no offset twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-compaction-held-'));
    const log = await open(dir);
    await log.createTopics([
      { name: TOPIC, partitions: 1, key: 'userId', config: { 'cleanup.policy': 'compact', 'segment.bytes': '4096' } },
    ]);
    await publishRange(log, 0, 300);
    const { release, held } = holdReads();
    let maintained = false;
    const maintenance = log.maintain().then(() => (maintained = true));
    await waitFor(() => held() || maintained, 'the compaction to read the segments');
    // k0 again (its survivor in a sealed segment is now superseded) and a key never seen before.
    await log.publish([record(300), record(301, 'fresh')]);
    expect(maintained).toBe(false);
    release();
    await maintenance;

    const after = await recordsOf(log);
    const offsets = after.map((r) => r.offset);
    expect(offsets).toEqual([...new Set(offsets)].sort((a, b) => a - b));
    // Every record read is the one published at its offset, and every key's latest one is there.
    for (const r of after) expect(r.value).toBe(`${r.offset}:${PADDING}`);
    const latest = new Map<string, number>();
    for (let i = 0; i < 300; i++) latest.set(`k${i % KEYS}`, i);
    latest.set('k0', 300).set('fresh', 301);
    for (const [key, offset] of latest) expect(after).toContainEqual({ offset, key, value: `${offset}:${PADDING}` });
    expect(after.length).toBeLessThan(100);
    expect(strays(dir)).toEqual([]);
    expect(offsetsInFolder(folderOf(dir))).toEqual(offsets);
    await log.close();
    const reopened = await open(dir);
    expect(await recordsOf(reopened)).toEqual(after);
    await reopened.close();
  });

  it('lets go of the replacements of segments that retention dropped while they were planned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-compaction-expired-'));
    let now = 1_000_000;
    const log = await open(dir, { now: () => now, compressSealed: false });
    await log.createTopics([
      {
        name: TOPIC,
        partitions: 1,
        key: 'userId',
        config: { 'cleanup.policy': 'compact,delete', 'retention.ms': '60000', 'segment.bytes': '4096' },
      },
    ]);
    await publishRange(log, 0, 300);
    const { release, held } = holdReads();
    const maintenance = log.maintain();
    await waitFor(held, 'the compaction to read the segments');
    now += 120_000;
    await publishRange(log, 300, 310);
    release();
    await maintenance;

    // Only the active segment is left, every record of it (those appended after the clock moved keep it
    // from expiring); no replacement of an expired segment is named or kept.
    const after = await recordsOf(log);
    const first = after[0]!.offset;
    expect(first).toBeGreaterThan(250);
    expect(after.map((r) => r.offset)).toEqual(Array.from({ length: 310 - first }, (_, i) => first + i));
    expect(strays(dir)).toEqual([]);
    await log.close();
    const reopened = await open(dir, { now: () => now });
    expect(await recordsOf(reopened)).toEqual(after);
    await reopened.close();
  });
});
