import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EmbeddedEventLog } from './embedded-event-log';
import { indexFileName } from './segment-files';
import { offsetsInFolder } from './segment-files-on-disk';
import type { Manifest } from './segment-manifest';

const TOPIC = 'compressed';
const COUNT = 3000;
/** ~130 framed bytes a record: two sealed segments of ~1,150 records, three 64 KB blocks each, and an active one. */
const SEGMENT_BYTES = 150_000;
const PADDING = 'x'.repeat(100);
const valueOf = (i: number): string => `${i}:${PADDING}`;
const expected = (from = 0): { offset: number; value: string }[] =>
  Array.from({ length: COUNT - from }, (_, i) => ({ offset: from + i, value: valueOf(from + i) }));
const folderOf = (dir: string): string => join(dir, 'segments', `${TOPIC}-0`);

const open = (dir: string): Promise<EmbeddedEventLog> =>
  EmbeddedEventLog.open({ dir, fsync: 'always', indexIntervalBytes: 1024, maintenanceIntervalMs: 0 });

/** Runs compress-crash-child.ts to its SIGKILL at `step` (its nth occurrence); returns how it ended. */
function crashWhileCompressing(dir: string, step: string, nth: number): NodeJS.Signals | number | null {
  const child = spawnSync(process.execPath, ['scripts/run.js', 'libs/messaging/src/embedded/compress-crash-child.ts'], {
    cwd: resolve(__dirname, '../../../..'),
    env: {
      ...process.env,
      COMPRESS_DIR: dir,
      COMPRESS_TOPIC: TOPIC,
      COMPRESS_COUNT: String(COUNT),
      COMPRESS_SEGMENT_BYTES: String(SEGMENT_BYTES),
      COMPRESS_PADDING: PADDING,
      COMPRESS_KILL_AT: step,
      COMPRESS_KILL_NTH: String(nth),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 60_000,
  });
  return child.signal ?? child.status;
}

function listed(dir: string): Manifest['segments'][string] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  return manifest.segments[`${TOPIC}/0`] ?? [];
}

const offsetsOnDisk = (dir: string): number[] => offsetsInFolder(folderOf(dir));

async function readBack(log: EmbeddedEventLog, from = 0): Promise<{ offset: number; value: string }[]> {
  const out: { offset: number; value: string }[] = [];
  await log.read(TOPIC, 0, from, async (batch) => {
    out.push(...batch.map((r) => ({ offset: r.offset, value: r.value })));
  });
  return out;
}

describe('embedded event log: a kill -9 while a sealed segment is compressed', () => {
  // Each step of one segment's compression: half its blocks written, its files synced, the manifest switched, the plain file deleted.
  it.each([
    ['block', 1, 'plain', ['00000000000000000000.br.log']],
    ['written', 1, 'plain', ['00000000000000000000.br.index', '00000000000000000000.br.log']],
    ['switched', 1, 'compressed', ['00000000000000000000.index', '00000000000000000000.log']],
    ['deleted', 1, 'compressed', []],
  ])(
    'killed at "%s" (#%d): the manifest names the %s file of the first segment, whole; a restart reads every record once',
    async (step, nth, first, strays) => {
      const dir = mkdtempSync(join(tmpdir(), `event-log-compress-crash-${step}-`));
      expect(crashWhileCompressing(dir, step, nth)).toBe('SIGKILL');
      const segments = listed(dir);
      expect(segments.length).toBeGreaterThanOrEqual(3);
      expect(segments[0]!.codec === 'brotli' ? 'compressed' : 'plain').toBe(first);
      // The files the crash left that the manifest does not name: the half-done or the replaced copy.
      const named = new Set(segments.flatMap((s) => [s.file, indexFileName(s.file)]));
      expect(readdirSync(folderOf(dir)).filter((f) => !named.has(f))).toEqual(strays);
      // What the manifest names is there, at its size, the ranges one after another from 0.
      segments.forEach((s, i) => {
        expect(statSync(join(folderOf(dir), s.file)).size).toBe(s.bytes);
        expect(s.base).toBe(i === 0 ? 0 : segments[i - 1]!.next);
      });

      const log = await open(dir);
      expect(await log.endOffsets(TOPIC)).toEqual([COUNT]);
      expect(await readBack(log)).toEqual(expected());
      // The file the manifest does not name (a half-written or a replaced copy) is gone: no offset twice on disk.
      const names = listed(dir).flatMap((s) => [s.file, indexFileName(s.file)]);
      expect(readdirSync(folderOf(dir)).sort()).toEqual(names.sort());
      expect(offsetsOnDisk(dir)).toEqual(expected().map((r) => r.offset));

      // The next maintenance compresses what is left plain; old offsets read back from the compressed blocks.
      await log.maintain();
      expect(listed(dir).filter((s) => s.sealed && s.codec !== 'brotli')).toEqual([]);
      expect(await readBack(log, 1500)).toEqual(expected(1500));
      await log.close();
      expect(offsetsOnDisk(dir)).toEqual(expected().map((r) => r.offset));

      const reopened = await open(dir);
      expect(await readBack(reopened, 1)).toEqual(expected(1));
      await reopened.close();
    },
    120_000,
  );
});
