import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EmbeddedEventLog } from './embedded-event-log';
import { offsetsInFolder } from './segment-files-on-disk';
import type { Manifest } from './segment-manifest';

const TOPIC = 'rolled';
/** About eight records of ~130 framed bytes to a segment: forty records roll five times. */
const SEGMENT_BYTES = 1024;
const PADDING = 'x'.repeat(100);
const valueOf = (i: number): string => `${i}:${PADDING}`;
const expected = (count: number): { offset: number; value: string }[] =>
  Array.from({ length: count }, (_, i) => ({ offset: i, value: valueOf(i) }));

const open = (dir: string): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({ dir, fsync: 'always', indexIntervalBytes: 256, maintenanceIntervalMs: 0 });

/** Runs roll-crash-child.ts to its SIGKILL; returns how it ended. */
function crashAfterAppending(dir: string, env: Record<string, string>): NodeJS.Signals | number | null {
  const child = spawnSync(process.execPath, ['scripts/run.js', 'libs/messaging/src/embedded/roll-crash-child.ts'], {
    cwd: resolve(__dirname, '../../../..'),
    env: {
      ...process.env,
      ROLL_DIR: dir,
      ROLL_TOPIC: TOPIC,
      ROLL_SEGMENT_BYTES: String(SEGMENT_BYTES),
      ROLL_PADDING: PADDING,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 60_000,
  });
  return child.signal ?? child.status;
}

/** Segment files on disk, with their sizes, that the manifest does not list: what rolls since the last checkpoint made. */
function unlisted(dir: string): { file: string; bytes: number }[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const listed = new Set((manifest.segments[`${TOPIC}/0`] ?? []).map((s) => s.file));
  const folder = join(dir, 'segments', `${TOPIC}-0`);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.log') && !listed.has(file))
    .map((file) => ({ file, bytes: statSync(join(folder, file)).size }));
}

/** The offsets of every record in the partition's segment files, in file order: each must be there once. */
const offsetsOnDisk = (dir: string): number[] => offsetsInFolder(join(dir, 'segments', `${TOPIC}-0`));

async function readBack(log: EmbeddedEventLog, from = 0): Promise<{ offset: number; value: string }[]> {
  const out: { offset: number; value: string }[] = [];
  await log.read(TOPIC, 0, from, async (batch) => {
    out.push(...batch.map((r) => ({ offset: r.offset, value: r.value })));
  });
  return out;
}

describe('embedded event log: segments rolled after the last checkpoint, then a kill -9', () => {
  it('reads every record back once, in order, at its offset, after two crashes and restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-roll-crash-'));
    // A checkpoint after 12 records leaves a half-full active segment in the manifest; the next 28 roll past it.
    expect(crashAfterAppending(dir, { ROLL_FROM: '0', ROLL_COUNT: '40', ROLL_CHECKPOINT_AFTER: '12' })).toBe('SIGKILL');
    const afterFirst = unlisted(dir);
    // The case under test: files of rolls the manifest does not know, holding records, under the names a replay rolls into.
    expect(afterFirst.length).toBeGreaterThanOrEqual(3);
    expect(afterFirst.every((s) => s.bytes > 0)).toBe(true);

    // The restart replays the journal's tail (rolling again into those names), appends 40 more and dies before any checkpoint.
    expect(crashAfterAppending(dir, { ROLL_FROM: '40', ROLL_COUNT: '40' })).toBe('SIGKILL');
    expect(unlisted(dir).length).toBeGreaterThan(afterFirst.length);

    const log = await open(dir);
    expect(await log.endOffsets(TOPIC)).toEqual([80]);
    expect(await readBack(log)).toEqual(expected(80));
    // From the middle of a segment rolled twice over: its index must point at its own records.
    expect(await readBack(log, 45)).toEqual(expected(80).slice(45));
    await log.publish([{ topic: TOPIC, key: 'k', value: valueOf(80) }]);
    // A short journal is not checkpointed at close: the next start replays the rolls once more.
    await log.close();
    expect(unlisted(dir).length).toBeGreaterThan(0);
    // On disk too, not only through the reader: no bytes of a crashed run left in front of the replayed records.
    expect(offsetsOnDisk(dir)).toEqual(expected(81).map((r) => r.offset));

    const again = await open(dir);
    expect(await readBack(again)).toEqual(expected(81));
    await again.maintain();
    await again.close();
    expect(unlisted(dir)).toEqual([]);
    expect(offsetsOnDisk(dir)).toEqual(expected(81).map((r) => r.offset));

    const checkpointed = await open(dir);
    expect(await readBack(checkpointed)).toEqual(expected(81));
    await checkpointed.close();
  }, 120_000);
});
