import { closeSync, openSync, read } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptEventLogError } from '../event-log-errors';
import { decodeFrames, HEADER_BYTES } from './journal-file';
import type { PartitionLog } from './partition-log';
import { decodeSegmentRecordHead } from './record-codec';
import { indexFileName, type SegmentMeta, segmentFileName } from './segment-files';
import { inflateBlocksAsync, planBlocks, removeSegmentFiles } from './segment-compression';
import { syncFolderAsync } from './segment-manifest';

// A compacted topic's sealed segments rewritten to each key's latest record, planned off the
// append path: the segments are read on the threadpool a block at a time (the event loop serves
// requests and appends in between), the replacements written and synced beside them, and only the
// switch of the segment list runs between journal writes (segment-cleaner.ts applyCompaction).

/** Plain bytes decoded per turn of the event loop: a ~1 MiB block of records costs well under a ms. */
const READ_BYTES = 1024 * 1024;

/** A sealed segment as planned and what takes its place: undefined when none of its records survives. */
export interface PlannedSegment {
  original: SegmentMeta;
  replacement: SegmentMeta | undefined;
}

export interface CompactionPlan {
  /** Only the sealed segments that shrink. */
  segments: PlannedSegment[];
  /** The end of the last sealed segment planned: compacted through here once applied. */
  through: number;
}

export interface CompactionControl {
  /** Asked between blocks: true stops (the log is closing); the plan's files are removed. */
  stopped: () => boolean;
  /** After each block of a replacement written (the kill -9 tests stop there, mid-file). */
  onBlock?: () => void;
  indexIntervalBytes: number;
  /** Names the replacement files: a generation no file of the folder has used. */
  generation: number;
}

interface Source {
  segment: SegmentMeta;
  fd: number;
  index: ArrayLike<number>;
  /** Offset and key of each record, in order; sealed segments only. */
  heads?: { o: number; k: string }[];
}

/**
 * Plans the compaction of the partition's sealed segments as they are now: every segment (the
 * active one up to what is written) read once for each key's latest offset, then each sealed
 * segment holding a superseded record rewritten with the others, at their offsets. A record
 * appended after this started may supersede a survivor: keeping it is correct, compaction is lazy.
 * Returns undefined when stopped (nothing left on disk) and a plan of no segments when none shrinks.
 */
export async function planCompaction(
  log: PartitionLog,
  control: CompactionControl,
): Promise<CompactionPlan | undefined> {
  log.flush();
  // Opened now: retention or compression may delete a file while it is read, not before.
  const sources: Source[] = log.segments.map((s) => ({
    segment: { ...s },
    fd: openSync(join(log.dir, s.file), 'r'),
    index: Float64Array.from(log.indexOf(s) as ArrayLike<number>),
  }));
  const written: string[] = [];
  let done = false;
  try {
    const sealed = sources.filter((s) => s.segment.sealed);
    const latest = new Map<string, number>();
    for (const source of sources) {
      const heads: { o: number; k: string }[] = [];
      const complete = await eachFrame(log, source, control, (payload) => {
        const head = decodeSegmentRecordHead(payload);
        latest.set(head.k, head.o);
        if (source.segment.sealed) heads.push(head);
      });
      if (!complete) return undefined;
      source.heads = heads;
    }
    const segments: PlannedSegment[] = [];
    for (const source of sealed) {
      const survivors = source.heads!.filter((h) => latest.get(h.k) === h.o).length;
      if (survivors === source.heads!.length) continue;
      const replacement =
        survivors === 0 ? undefined : await rewrite(log, source, latest, control, (file) => written.push(file));
      if (survivors > 0 && !replacement) return undefined;
      segments.push({ original: source.segment, replacement });
    }
    if (written.length > 0) await syncFolderAsync(log.dir);
    done = true;
    return { segments, through: sealed[sealed.length - 1]?.segment.next ?? log.start };
  } finally {
    for (const source of sources) closeSync(source.fd);
    if (!done) await Promise.all(written.map((file) => removeSegmentFiles(log.dir, file)));
  }
}

/** Writes the survivors of a sealed segment, frames copied as they are, with an index; both synced. */
async function rewrite(
  log: PartitionLog,
  source: Source,
  latest: ReadonlyMap<string, number>,
  control: CompactionControl,
  onCreated: (file: string) => void,
): Promise<SegmentMeta | undefined> {
  const { base, next } = source.segment;
  const file = segmentFileName(base, control.generation);
  onCreated(file);
  const target = await open(join(log.dir, file), 'w');
  const index: number[] = [];
  let kept: Buffer[] = [];
  let bytes = 0;
  let flushed = 0;
  let sinceIndexed = Infinity;
  let maxTs = 0;
  const survivor = (payload: Buffer, frame: Buffer): void => {
    const head = decodeSegmentRecordHead(payload);
    if (latest.get(head.k) !== head.o) return;
    if (sinceIndexed >= control.indexIntervalBytes) {
      index.push(head.o, bytes);
      sinceIndexed = 0;
    }
    kept.push(frame);
    bytes += frame.length;
    sinceIndexed += frame.length;
    maxTs = Math.max(maxTs, head.ts);
  };
  const writeKept = async (): Promise<void> => {
    if (kept.length > 0) await target.write(Buffer.concat(kept), 0, bytes - flushed, flushed);
    kept = [];
    flushed = bytes;
    control.onBlock?.();
  };
  try {
    if (!(await eachFrame(log, source, control, survivor, writeKept))) return undefined;
    await target.sync();
  } finally {
    await target.close();
  }
  const indexFile = await open(join(log.dir, indexFileName(file)), 'w');
  try {
    await indexFile.write(Buffer.from(new Float64Array(index).buffer));
    await indexFile.sync();
  } finally {
    await indexFile.close();
  }
  return { file, base, next, bytes, maxTs, sealed: true };
}

/**
 * Calls `onFrame` for each record of a segment, in order, a block at a time: read on the
 * threadpool (compressed blocks inflated there too), so the event loop turns between blocks.
 * False when stopped. A frame failing its checksum stops here, naming the file and the byte.
 */
async function eachFrame(
  log: PartitionLog,
  source: Source,
  control: CompactionControl,
  onFrame: (payload: Buffer, frame: Buffer) => void,
  afterBlock?: () => Promise<void>,
): Promise<boolean> {
  const { segment, fd, index } = source;
  const path = join(log.dir, segment.file);
  const holds = `${log.topic}/${log.partition} (offsets ${segment.base}..${segment.next - 1})`;
  for (const block of planBlocks(index, segment.bytes, segment.codec ? 1 : READ_BYTES)) {
    if (control.stopped()) return false;
    const stored = await readRange(fd, block.from, block.to, path);
    const plain = segment.codec ? await inflateBlocksAsync(stored, block.from, path, holds) : stored;
    const end = decodeFrames(plain, 0, plain.length, (payload, at) =>
      onFrame(payload, plain.subarray(at, at + HEADER_BYTES + payload.length)),
    );
    if (end < plain.length)
      throw new CorruptEventLogError(
        path,
        segment.codec ? block.from : block.from + end,
        `a record of ${holds} fails its length or checksum`,
      );
    await afterBlock?.();
  }
  return true;
}

function readRange(fd: number, from: number, to: number, path: string): Promise<Buffer> {
  const data = Buffer.allocUnsafe(to - from);
  const more = (done: number): Promise<Buffer> =>
    new Promise<number>((resolve, reject) =>
      read(fd, data, done, data.length - done, from + done, (error, n) => (error ? reject(error) : resolve(n))),
    ).then((n) => {
      if (n === 0 && done < data.length) throw new CorruptEventLogError(path, from + done, 'the segment ends early');
      return done + n < data.length ? more(done + n) : data;
    });
  return data.length === 0 ? Promise.resolve(data) : more(0);
}
