import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { EmbeddedEventLog, type EmbeddedEventLogOptions } from './embedded-event-log';
import type { Manifest } from './segment-manifest';

const TOPIC = 'history';
const PADDING = 'x'.repeat(100);
const valueOf = (i: number): string => `${i}:${PADDING}`;
const values = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => valueOf(from + i));
const folderOf = (dir: string, topic = TOPIC): string => join(dir, 'segments', `${topic}-0`);
// Small segments, index steps and cache: many sealed segments, and reads that go to disk.
const open = (dir: string, options: Partial<EmbeddedEventLogOptions> = {}): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({
    dir,
    segmentBytes: 8192,
    indexIntervalBytes: 512,
    cacheBytes: 16 * 1024,
    maintenanceIntervalMs: 0,
    ...options,
  });

async function publishRange(log: EmbeddedEventLog, from: number, to: number, topic = TOPIC): Promise<void> {
  for (let i = from; i < to; i += 50)
    await log.publish(values(i, Math.min(i + 50, to)).map((value) => ({ topic, key: 'k', value })));
}

async function valuesFrom(log: EmbeddedEventLog, from: number, topic = TOPIC): Promise<string[]> {
  const out: string[] = [];
  await log.read(topic, 0, from, async (batch) => void out.push(...batch.map((r) => r.value)));
  return out;
}

const segmentFiles = (dir: string, topic = TOPIC): string[] =>
  readdirSync(folderOf(dir, topic))
    .filter((f) => f.endsWith('.log'))
    .sort();
const bytesOf = (dir: string): number =>
  readdirSync(folderOf(dir)).reduce((sum, f) => sum + statSync(join(folderOf(dir), f)).size, 0);
const listed = (dir: string, topic = TOPIC): Manifest['segments'][string] =>
  (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest).segments[`${topic}/0`] ?? [];

/** A log of 600 records whose sealed segments maintain() compressed, closed; returns its folder. */
async function compressedHistory(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const log = await open(dir);
  await log.createTopics([{ name: TOPIC, partitions: 1, key: 'userId', config: {} }]);
  await publishRange(log, 0, 600);
  await log.maintain();
  await log.close();
  return dir;
}

describe('embedded event log: sealed segments compressed', () => {
  it('compresses every sealed segment at maintenance; old offsets read back, after a restart and to a new group from the start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-compressed-'));
    const log = await open(dir);
    await log.createTopics([{ name: TOPIC, partitions: 1, key: 'userId', config: {} }]);
    await publishRange(log, 0, 600);
    const plainBytes = bytesOf(dir);
    await log.maintain();
    const segments = listed(dir);
    expect(segments.length).toBeGreaterThan(5);
    // Every sealed segment is compressed, the active one is not; the plain files are gone.
    expect(segments.map((s) => s.codec ?? 'plain')).toEqual([...segments.slice(1).map(() => 'brotli'), 'plain']);
    expect(segmentFiles(dir)).toEqual(segments.map((s) => s.file).sort());
    expect(bytesOf(dir)).toBeLessThan(plainBytes / 3);
    // From the start, and from the middle of a compressed block, while appends go on.
    expect(await valuesFrom(log, 0)).toEqual(values(0, 600));
    await publishRange(log, 600, 650);
    expect(await valuesFrom(log, 257)).toEqual(values(257, 650));
    await log.close();

    const reopened = await open(dir);
    expect(await valuesFrom(reopened, 333)).toEqual(values(333, 650));
    const seen: string[] = [];
    const consumer = await reopened.consume({
      groupId: 'late-joiner',
      topics: [TOPIC],
      fromBeginning: true,
      maxBatchSize: 64,
      eachBatch: async (batch) => void seen.push(...batch.records.map((r) => r.value)),
    });
    await waitFor(async () => seen.length >= 650, 'the new group read the whole history');
    await consumer.stop();
    expect(seen).toEqual(values(0, 650));
    await reopened.close();
  });

  it('deletes compressed segments past retention, whole, as plain ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-compressed-retention-'));
    let now = 1_000_000;
    const config = { 'cleanup.policy': 'delete', 'retention.ms': '60000' };
    const log = await open(dir, { now: () => now });
    await log.createTopics([{ name: 'ticks', partitions: 1, key: 'symbol', config }]);
    await publishRange(log, 0, 300, 'ticks');
    await log.maintain();
    const old = listed(dir, 'ticks').filter((s) => s.codec === 'brotli');
    expect(old.length).toBeGreaterThan(2);
    now += 90_000;
    await publishRange(log, 300, 310, 'ticks');
    await log.maintain();
    // Every segment of only old records went, its compressed files with it; the new records are all kept.
    const kept = await valuesFrom(log, 0, 'ticks');
    expect(kept).toEqual(values(310 - kept.length, 310));
    expect(kept.length).toBeLessThan(310 - 250);
    const files = readdirSync(folderOf(dir, 'ticks'));
    for (const segment of old.filter((s) => s.next <= 310 - kept.length)) expect(files).not.toContain(segment.file);
    await log.close();
    const reopened = await open(dir, { now: () => now });
    expect(await valuesFrom(reopened, 0, 'ticks')).toEqual(kept);
    await reopened.close();
  });

  it('compacts compressed segments: each key keeps its latest record, at its offset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-compressed-compaction-'));
    const log = await open(dir);
    await log.createTopics([{ name: 'latest', partitions: 1, key: 'userId', config: { 'cleanup.policy': 'compact' } }]);
    const update = (round: number): { topic: string; key: string; value: string }[] =>
      Array.from({ length: 40 }, (_, k) => ({ topic: 'latest', key: `k${k}`, value: `${round}:${k}:${PADDING}` }));
    for (let round = 0; round < 5; round++) await log.publish(update(round));
    await log.maintain();
    expect(listed(dir, 'latest').some((s) => s.codec === 'brotli')).toBe(true);
    for (let round = 5; round < 10; round++) await log.publish(update(round));
    await log.maintain();
    const kept: { offset: number; key: string; value: string }[] = [];
    await log.read(
      'latest',
      0,
      0,
      async (batch) => void kept.push(...batch.map((r) => ({ offset: r.offset, key: r.key, value: r.value }))),
    );
    // Rounds 0-4 sat only in compressed segments: compaction had to inflate them to drop them.
    expect(kept.filter((r) => Number(r.value.split(':')[0]) < 5)).toEqual([]);
    const last = kept.filter((r) => r.value.startsWith('9:'));
    expect(last.map((r) => r.offset)).toEqual(Array.from({ length: 40 }, (_, k) => 360 + k));
    await log.close();
  });

  it('stops the start on a compressed segment cut short, naming its file and byte', async () => {
    const dir = await compressedHistory('event-log-compressed-cut-');
    const segment = listed(dir).find((s) => s.codec === 'brotli' && s.base > 0)!;
    const path = join(folderOf(dir), segment.file);
    truncateSync(path, segment.bytes - 5);
    await expect(open(dir)).rejects.toThrow(
      `event log: ${path} is corrupt at byte ${segment.bytes - 5}: it holds ${segment.bytes - 5} bytes where its checkpoint says ${segment.bytes} (offsets ${segment.base}..${segment.next - 1})`,
    );
  });

  it('refuses to read a compressed block that fails its checksum, naming file, byte and offsets', async () => {
    const dir = await compressedHistory('event-log-compressed-flip-');
    const segment = listed(dir).find((s) => s.codec === 'brotli' && s.base > 0)!;
    const path = join(folderOf(dir), segment.file);
    const bytes = readFileSync(path);
    bytes.writeUInt8(bytes.readUInt8(20) ^ 0xff, 20);
    writeFileSync(path, bytes);
    const reopened = await open(dir);
    await expect(valuesFrom(reopened, 0)).rejects.toThrow(
      `event log: ${path} is corrupt at byte 0: a compressed block of ${TOPIC}/0 (offsets ${segment.base}..${segment.next - 1}) fails`,
    );
    // The segments after it still read: the damage is named, not spread.
    expect(await valuesFrom(reopened, segment.next)).toEqual(values(segment.next, 600));
    await reopened.close();
  });
});
