import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { describeEventLogContract } from '../contract/event-log.contract';
import { CorruptEventLogError } from '../event-log-errors';
import { EmbeddedEventLog, type EmbeddedEventLogOptions } from './embedded-event-log';
import type { JournalEntry } from './journal-entry';
import { encodeFrame } from './journal-file';
import { encodeJournalEntry } from './record-codec';
import { indexFileName, segmentFileName } from './segment-files';

describeEventLogContract('embedded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-log-'));
  // Small segments, index steps and cache, so every test also reads across segments and from disk.
  return {
    open: () =>
      EmbeddedEventLog.open({
        dir,
        fsync: 'always',
        segmentBytes: 64 * 1024,
        indexIntervalBytes: 512,
        cacheBytes: 32 * 1024,
        maintenanceIntervalMs: 0,
      }),
    childEnv: { CONTRACT_LOG_KIND: 'embedded', CONTRACT_LOG_DIR: dir },
    exclusiveWriter: true,
    maintain: (log) => (log as EmbeddedEventLog).maintain(),
    segmentConfig: (bytes) => ({ 'segment.bytes': String(bytes) }),
  };
});

const definition = { name: 'recovery', partitions: 1, key: 'userId' as const, config: {} };
const stepFrame = (entry: JournalEntry): Buffer => encodeFrame(encodeJournalEntry(entry));
/** A frame as versions before the binary payloads wrote it: JSON, a value a string inside it. */
const jsonFrame = (entry: unknown): Buffer => encodeFrame(Buffer.from(JSON.stringify(entry)));
const walOf = (dir: string): string =>
  join(dir, (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { wal: string }).wal);
const open = (dir: string, options: Partial<EmbeddedEventLogOptions> = {}): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({ dir, maintenanceIntervalMs: 0, ...options });

async function valuesOf(log: EmbeddedEventLog, topic = 'recovery'): Promise<string[]> {
  const values: string[] = [];
  await log.read(topic, 0, 0, async (batch) => {
    values.push(...batch.map((r) => r.value));
  });
  return values;
}

describe('embedded event log recovery', () => {
  it('cuts a torn last frame and keeps every whole one before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-torn-'));
    const log = await open(dir);
    await log.createTopics([definition]);
    await log.publish([{ topic: 'recovery', key: 'a', value: 'one' }]);
    await log.close();
    // After the checkpoint of a clean close, a step the journal holds alone, then a torn one (a kill -9 mid-write).
    const path = walOf(dir);
    appendFileSync(path, stepFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'two', ts: 0 }] }));
    const whole = statSync(path).size;
    const next = stepFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'three', ts: 0 }] });
    appendFileSync(path, next.subarray(0, next.length - 3));

    const warnings: unknown[] = [];
    const reopened = await open(dir, { onWarning: (_m, details) => warnings.push(details) });
    expect(await valuesOf(reopened)).toEqual(['one', 'two']);
    expect(warnings).toEqual([{ path, tornBytes: next.length - 3 }]);
    expect(statSync(path).size).toBe(whole);
    await reopened.publish([{ topic: 'recovery', key: 'a', value: 'three' }]);
    await reopened.close();

    const again = await open(dir);
    expect(await again.endOffsets('recovery')).toEqual([3]);
    expect(await valuesOf(again)).toEqual(['one', 'two', 'three']);
    await again.close();
  });

  it('refuses a frame whose checksum does not match, even when its length fits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-crc-'));
    const log = await open(dir);
    await log.createTopics([definition]);
    await log.close();
    const frame = stepFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'x', ts: 0 }] });
    const at = frame.length - 2;
    frame.writeUInt8(frame.readUInt8(at) ^ 0xff, at);
    appendFileSync(walOf(dir), frame);
    const reopened = await open(dir);
    expect(await reopened.endOffsets('recovery')).toEqual([0]);
    await reopened.close();
  });

  it('stops the start on a damaged frame in the middle of the journal instead of cutting the good ones after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-wal-middle-'));
    const log = await open(dir);
    await log.createTopics([definition]);
    await log.maintain();
    await log.close();
    const path = walOf(dir);
    const first = stepFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'first', ts: 0 }] });
    const second = stepFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'second', ts: 0 }] });
    first.writeUInt8(first.readUInt8(first.length - 1) ^ 0xff, first.length - 1);
    appendFileSync(path, Buffer.concat([first, second]));
    await expect(open(dir)).rejects.toThrow(
      new CorruptEventLogError(path, 0, `a bad frame lies before a whole one at byte ${first.length}`).message,
    );
    expect(statSync(path).size).toBe(first.length + second.length);
  });

  it('stops the start on a segment cut short in the middle of the history, naming its file and offset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-segment-middle-'));
    const log = await open(dir, { segmentBytes: 256 });
    await log.createTopics([definition]);
    for (let i = 0; i < 100; i++) await log.publish([{ topic: 'recovery', key: 'a', value: `v${i}` }]);
    await log.maintain();
    await log.close();
    const folder = join(dir, 'segments', 'recovery-0');
    const segments = readdirSync(folder)
      .filter((f) => f.endsWith('.log'))
      .sort();
    expect(segments.length).toBeGreaterThan(3);
    const middle = join(folder, segments[1]!);
    const size = statSync(middle).size;
    truncateSync(middle, size - 10);
    await expect(open(dir)).rejects.toThrow(`event log: ${middle} is corrupt at byte ${size - 10}`);
    expect(statSync(middle).size).toBe(size - 10);
  });

  it('refuses to read a record whose checksum fails in an old segment, naming file and byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-segment-flip-'));
    const log = await open(dir, { segmentBytes: 256 });
    await log.createTopics([definition]);
    for (let i = 0; i < 100; i++) await log.publish([{ topic: 'recovery', key: 'a', value: `v${i}` }]);
    await log.maintain();
    await log.close();
    const folder = join(dir, 'segments', 'recovery-0');
    const middle = join(
      folder,
      readdirSync(folder)
        .filter((f) => f.endsWith('.log'))
        .sort()[1]!,
    );
    const bytes = readFileSync(middle);
    bytes.writeUInt8(bytes.readUInt8(20) ^ 0xff, 20);
    writeFileSync(middle, bytes);
    const reopened = await open(dir);
    await expect(valuesOf(reopened)).rejects.toThrow(`event log: ${middle} is corrupt at byte 0`);
    await reopened.close();
  });

  it('deletes segments whose newest record is older than retention.ms, the quiet active one included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-retention-'));
    let now = 1_000_000;
    const log = await open(dir, { segmentBytes: 512, now: () => now });
    const ticks = {
      name: 'ticks',
      partitions: 1,
      key: 'symbol' as const,
      config: { 'cleanup.policy': 'delete', 'retention.ms': '60000' },
    };
    await log.createTopics([ticks]);
    for (let i = 0; i < 40; i++) await log.publish([{ topic: 'ticks', key: 's', value: `old${i}` }]);
    now += 30_000;
    for (let i = 0; i < 5; i++) await log.publish([{ topic: 'ticks', key: 's', value: `new${i}` }]);
    now += 45_000;
    await log.maintain();
    const kept = await valuesOf(log, 'ticks');
    const all = [...Array.from({ length: 40 }, (_, i) => `old${i}`), ...Array.from({ length: 5 }, (_, i) => `new${i}`)];
    // Whole segments of only old records went; the one the new records share is kept whole.
    expect(kept.length).toBeLessThan(45);
    expect(kept).toEqual(all.slice(45 - kept.length));
    now += 60_000;
    await log.maintain();
    expect(await valuesOf(log, 'ticks')).toEqual([]);
    expect(await log.endOffsets('ticks')).toEqual([45]);
    await log.close();
    const reopened = await open(dir, { now: () => now });
    expect(await reopened.endOffsets('ticks')).toEqual([45]);
    expect(readdirSync(join(dir, 'segments', 'ticks-0')).filter((f) => f.endsWith('.log'))).toHaveLength(1);
    await reopened.close();
  });

  it('keeps consumer-group commits in the manifest: two hundred commits leave no frame behind after a checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-commits-'));
    const log = await open(dir);
    await log.createTopics([definition]);
    const seen: string[] = [];
    const consumer = await log.consume({
      groupId: 'g',
      topics: ['recovery'],
      fromBeginning: true,
      maxBatchSize: 1,
      eachBatch: async (b) => void seen.push(...b.records.map((r) => r.value)),
    });
    for (let i = 0; i < 200; i++) await log.publish([{ topic: 'recovery', key: 'a', value: `v${i}` }]);
    await waitFor(async () => (await log.committedOffsets('g', 'recovery'))[0] === 200, 'all 200 committed one by one');
    await consumer.stop();
    await log.maintain();
    expect(statSync(walOf(dir)).size).toBe(0);
    await log.close();
    const reopened = await open(dir);
    expect(await reopened.committedOffsets('g', 'recovery')).toEqual([200]);
    await reopened.close();
  });

  it('turns the single journal file of earlier versions into segments on first open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-legacy-'));
    const frames = [
      jsonFrame({ d: [definition] }),
      jsonFrame({ r: [0, 1, 2].map((i) => ({ t: 'recovery', p: 0, k: 'a', v: `old${i}`, ts: i })) }),
      jsonFrame({ c: [{ g: 'g', t: 'recovery', p: 0, o: 2 }] }),
    ];
    writeFileSync(join(dir, 'journal.log'), Buffer.concat(frames));
    const log = await open(dir);
    expect(await valuesOf(log)).toEqual(['old0', 'old1', 'old2']);
    expect(await log.committedOffsets('g', 'recovery')).toEqual([2]);
    expect(existsSync(join(dir, 'journal.log'))).toBe(false);
    await log.close();
  });

  it('reads segments and journal steps written as JSON by earlier versions, and appends after them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-json-frames-'));
    const folder = join(dir, 'segments', 'recovery-0');
    mkdirSync(folder, { recursive: true });
    const records = [0, 1].map((o) =>
      jsonFrame({ o, k: 'a', v: `{"n":"old${o}"}`, h: { 'x-message-id': `m${o}` }, ts: o }),
    );
    const file = segmentFileName(0);
    writeFileSync(join(folder, file), Buffer.concat(records));
    writeFileSync(join(folder, indexFileName(file)), Buffer.from(new Float64Array([0, 0]).buffer));
    const wal = 'wal-0000000001.log';
    const segment = { file, base: 0, next: 2, bytes: records[0]!.length + records[1]!.length, maxTs: 1, sealed: false };
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        v: 1,
        generation: 1,
        wal,
        topics: [definition],
        segments: { 'recovery/0': [segment] },
        commits: [],
      }),
    );
    writeFileSync(join(dir, wal), jsonFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: '{"n":"old2"}', ts: 2 }] }));
    const log = await open(dir);
    await log.publish([{ topic: 'recovery', key: 'a', value: '{"n":"new3"}', headers: { 'x-message-id': 'm3' } }]);
    await log.maintain();
    await log.close();

    const reopened = await open(dir);
    const read: { value: string; headers: Record<string, string> }[] = [];
    await reopened.read(
      'recovery',
      0,
      0,
      async (batch) => void read.push(...batch.map((r) => ({ value: r.value, headers: r.headers }))),
    );
    await reopened.close();
    expect(read).toEqual([
      { value: '{"n":"old0"}', headers: { 'x-message-id': 'm0' } },
      { value: '{"n":"old1"}', headers: { 'x-message-id': 'm1' } },
      { value: '{"n":"old2"}', headers: {} },
      { value: '{"n":"new3"}', headers: { 'x-message-id': 'm3' } },
    ]);
  });

  it('refuses appends with a typed error when the disk is full, loses nothing acknowledged, and takes appends again once space returns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-full-'));
    // 64 KiB per file: the journal fills up long before a checkpoint would start a new one.
    const out = execFileSync(
      'bash',
      [
        '-c',
        `ulimit -f 64 && exec "${process.execPath}" scripts/run.js libs/messaging/src/embedded/disk-full-child.ts`,
      ],
      {
        cwd: resolve(__dirname, '../../../..'),
        env: { ...process.env, DISK_FULL_DIR: dir },
        encoding: 'utf8',
      },
    );
    const result = JSON.parse(out.trim().split('\n').pop()!) as {
      acked: number;
      refusedTyped: boolean;
      message: string;
      stillFull: boolean;
    };
    expect(result).toMatchObject({ refusedTyped: true, stillFull: true });
    expect(result.message).toContain('EFBIG');
    expect(result.acked).toBeGreaterThan(50);
    return open(dir).then(async (log) => {
      const values = await valuesOf(log, 'full');
      await log.close();
      expect(values.map((v) => Number(v.split(':')[0]))).toEqual(Array.from({ length: result.acked + 1 }, (_, i) => i));
    });
  }, 60_000);
});
