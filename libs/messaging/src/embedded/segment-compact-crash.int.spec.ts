import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COMPACT_CRASH } from './compact-crash-child';
import { EmbeddedEventLog } from './embedded-event-log';
import { indexFileName } from './segment-files';
import { offsetsInFolder } from './segment-files-on-disk';
import type { Manifest } from './segment-manifest';

const { topic: TOPIC, count: COUNT, padding: PADDING, keyOf } = COMPACT_CRASH;
const folderOf = (dir: string): string => join(dir, 'segments', `${TOPIC}-0`);
const open = (dir: string): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({ dir, fsync: 'always', indexIntervalBytes: 1024, maintenanceIntervalMs: 0 });
/** Each key's latest offset among all the records published. */
const latest = new Map<string, number>(Array.from({ length: COUNT }, (_, i) => [keyOf(i), i]));

/** Runs compact-crash-child.ts to its SIGKILL at `step` (its nth occurrence) of the second compaction. */
function crashWhileCompacting(dir: string, step: string, nth: number): NodeJS.Signals | number | null {
  const child = spawnSync(process.execPath, ['scripts/run.js', 'libs/messaging/src/embedded/compact-crash-child.ts'], {
    cwd: resolve(__dirname, '../../../..'),
    env: { ...process.env, COMPACT_DIR: dir, COMPACT_KILL_AT: step, COMPACT_KILL_NTH: String(nth) },
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 60_000,
  });
  return child.signal ?? child.status;
}

const listed = (dir: string): Manifest['segments'][string] =>
  (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest).segments[`${TOPIC}/0`] ?? [];

/**
 * The files of the folder the manifest does not name, but for a segment rolled since the
 * checkpoint (the replay rolls into it again): what is left of the compaction.
 */
function unnamed(dir: string): string[] {
  const segments = listed(dir);
  const named = new Set(segments.flatMap((s) => [s.file, indexFileName(s.file)]));
  const rolled = (f: string): boolean => Number(f.slice(0, 20)) > segments.at(-1)!.base;
  return readdirSync(folderOf(dir)).filter((f) => !named.has(f) && !rolled(f));
}

async function readBack(log: EmbeddedEventLog): Promise<{ offset: number; key: string; value: string }[]> {
  const out: { offset: number; key: string; value: string }[] = [];
  await log.read(
    TOPIC,
    0,
    0,
    async (batch) => void out.push(...batch.map((r) => ({ offset: r.offset, key: r.key, value: r.value }))),
  );
  return out;
}

/** Every record read is the one published at its offset, once, in order, and every key's latest is there. */
function expectWhole(records: { offset: number; key: string; value: string }[]): void {
  const offsets = records.map((r) => r.offset);
  expect(offsets).toEqual([...new Set(offsets)].sort((a, b) => a - b));
  for (const r of records)
    expect(r).toEqual({ offset: r.offset, key: keyOf(r.offset), value: `${r.offset}:${PADDING}` });
  for (const offset of latest.values()) expect(offsets).toContain(offset);
}

describe('embedded event log: a kill -9 while a compacted topic is compacted', () => {
  // Each step of the second compaction: a replacement's first block written, its files synced, the manifest switched, the replaced files deleted.
  it.each([
    ['block', 1, 'a replacement, cut short', 1],
    ['written', 1, 'a replacement and its index', 2],
    ['switched', 1, 'the replaced segment and its index', 2],
    ['deleted', 1, 'nothing', 0],
  ])(
    'killed at "%s" (#%d): the manifest names whole segments (left beside them: %s); a restart reads every record once',
    async (step, nth, _left, strays) => {
      const dir = mkdtempSync(join(tmpdir(), `event-log-compact-crash-${step}-`));
      expect(crashWhileCompacting(dir, step, nth)).toBe('SIGKILL');
      const segments = listed(dir);
      const left = unnamed(dir);
      expect(left).toHaveLength(strays);
      // A replacement not yet named carries its generation in its name; a replaced segment, once named no more, does not.
      for (const file of left) expect(/\.c\d+\./.test(file)).toBe(step === 'block' || step === 'written');
      // Sealed segments whole at their size; the active one holds at least what the checkpoint counted.
      for (const s of segments) {
        const size = statSync(join(folderOf(dir), s.file)).size;
        if (s.sealed) expect(size).toBe(s.bytes);
        else expect(size).toBeGreaterThanOrEqual(s.bytes);
      }

      const log = await open(dir);
      expect(await log.endOffsets(TOPIC)).toEqual([COUNT]);
      const before = await readBack(log);
      expectWhole(before);
      // What the manifest does not name is gone: no offset twice on disk.
      expect(unnamed(dir)).toEqual([]);
      expect(offsetsInFolder(folderOf(dir))).toEqual(before.map((r) => r.offset));

      // The next maintenance compacts what the crash left: sealed segments keep only latest records.
      await log.maintain();
      const after = await readBack(log);
      expectWhole(after);
      const activeBase = listed(dir).at(-1)!.base;
      for (const r of after.filter((x) => x.offset < activeBase)) expect(latest.get(r.key)).toBe(r.offset);
      await log.close();
      expect(offsetsInFolder(folderOf(dir))).toEqual(after.map((r) => r.offset));
      const reopened = await open(dir);
      expect(await readBack(reopened)).toEqual(after);
      await reopened.close();
    },
    120_000,
  );
});
