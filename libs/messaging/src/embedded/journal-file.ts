import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptEventLogError, EventLogUnavailableError } from '../event-log-errors';

/**
 * Files of framed entries: [u32 length][u32 crc32][payload] (payloads: record-codec.ts). In the write-ahead log one frame
 * is one atomic step of the log (records, offset commits, or both): a crash mid-write leaves a torn
 * last frame, which recovery detects by its length or checksum and cuts off, so a step is either
 * whole or absent. A bad frame with a whole frame after it is not a torn write but damage, and
 * recovery stops there rather than cut good steps. Segment files use the same framing per record.
 */
export const HEADER_BYTES = 8;

export interface RecoveredJournal<T> {
  entries: T[];
  /** Bytes cut from the end because the last frame was torn. */
  tornBytes: number;
}

const CHUNK_BYTES = 8 * 1024 * 1024;
/** A torn tail is one group write at most; more bytes after a bad frame than this are damage, not a tear. */
const MAX_TORN_BYTES = 64 * 1024 * 1024;

/** Reads the journal in chunks (a journal of earlier versions may be far larger than memory should hold). */
export function recoverJournal<T>(
  path: string,
  decode: (payload: Buffer) => T,
  onEntry?: (entry: T) => void,
): RecoveredJournal<T> {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    return { entries: [], tornBytes: 0 };
  }
  const entries: T[] = [];
  const take = onEntry ?? ((entry: T) => void entries.push(entry));
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    let position = 0;
    let pending = Buffer.alloc(0);
    while (position + pending.length < size) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position - pending.length));
      const read = readSync(fd, chunk, 0, chunk.length, position + pending.length);
      if (read === 0) break;
      pending = pending.length === 0 ? chunk.subarray(0, read) : Buffer.concat([pending, chunk.subarray(0, read)]);
      const end = decodeFrames(pending, 0, pending.length, (payload) => take(decode(payload)));
      position += end;
      pending = pending.subarray(end);
      // A whole frame that failed its checksum, or a length no tear could leave: stop reading, judge below.
      if (
        pending.length > MAX_TORN_BYTES ||
        (pending.length >= HEADER_BYTES && HEADER_BYTES + pending.readUInt32LE(0) <= pending.length)
      )
        break;
    }
    const tornBytes = size - position;
    if (tornBytes > 0) {
      if (tornBytes > MAX_TORN_BYTES)
        throw new CorruptEventLogError(path, position, `a bad frame with ${tornBytes} bytes after it`);
      const rest = Buffer.allocUnsafe(tornBytes);
      readSync(fd, rest, 0, tornBytes, position);
      const damage = nextWholeFrame(rest, 1);
      if (damage !== undefined)
        throw new CorruptEventLogError(
          path,
          position,
          `a bad frame lies before a whole one at byte ${position + damage}`,
        );
      ftruncateSync(fd, position);
    }
    return { entries, tornBytes };
  } finally {
    closeSync(fd);
  }
}

/** Calls `onFrame` for each whole frame of data[from, to); returns where the whole frames end. */
export function decodeFrames(
  data: Buffer,
  from: number,
  to: number,
  onFrame: (payload: Buffer, at: number) => void,
): number {
  let position = from;
  while (position + HEADER_BYTES <= to) {
    const length = data.readUInt32LE(position);
    const end = position + HEADER_BYTES + length;
    if (end > to) break;
    const payload = data.subarray(position + HEADER_BYTES, end);
    if (crc32(payload) !== data.readUInt32LE(position + 4)) break;
    onFrame(payload, position);
    position = end;
  }
  return position;
}

function nextWholeFrame(data: Buffer, from: number): number | undefined {
  for (let at = from; at + HEADER_BYTES <= data.length; at++) {
    const length = data.readUInt32LE(at);
    if (length === 0 || at + HEADER_BYTES + length > data.length) continue;
    if (crc32(data.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length)) === data.readUInt32LE(at + 4)) return at;
  }
  return undefined;
}

export function encodeFrame(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, HEADER_BYTES);
  return frame;
}

export type FsyncPolicy = 'always' | 'never';

type QueueItem =
  | { kind: 'frame'; frame: Buffer; onDurable: () => void; resolve: () => void; reject: (error: unknown) => void }
  | { kind: 'task'; run: () => Promise<void>; resolve: () => void; reject: (error: unknown) => void };
type PendingWrite = Extract<QueueItem, { kind: 'frame' }>;

/**
 * Group commit: frames queued while a write is in flight go out together in the next write, with
 * one fdatasync for all of them. `onDurable` runs in queue order once the frame is on disk (with
 * fsync 'always'), so readers never see a step that a crash could still take back. Exclusive tasks
 * (checkpoints, retention) run between writes, never beside one.
 */
export class JournalWriter {
  private queue: QueueItem[] = [];
  private flushing: Promise<void> | undefined;
  /** Set when the log's state may no longer match the file: every later append is refused. */
  private failure: unknown;

  private constructor(
    private handle: FileHandle,
    private readonly fsync: FsyncPolicy,
    private size: number,
    private readonly afterBatch: () => void,
  ) {}

  /** `afterBatch` runs once the `onDurable` of every frame of a write ran: work they share (e.g. one file write per partition). */
  static async open(path: string, fsync: FsyncPolicy, afterBatch: () => void = () => {}): Promise<JournalWriter> {
    const handle = await open(path, 'a');
    return new JournalWriter(handle, fsync, (await handle.stat()).size, afterBatch);
  }

  /** Bytes in the current file. */
  get bytes(): number {
    return this.size;
  }

  append(frame: Buffer, onDurable: () => void): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.enqueue({ kind: 'frame', frame, onDurable, resolve, reject }));
  }

  /** Runs `run` alone, after the writes queued before it and before those queued after. */
  exclusive(run: () => Promise<void>): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.enqueue({ kind: 'task', run, resolve, reject }));
  }

  /**
   * Continues in a new file, from an exclusive task: the file is opened first, then `commit` makes
   * it the one a restart reads (if it throws, nothing changed), then the old one is let go.
   */
  async rotate(path: string, commit: () => void): Promise<void> {
    const next = await open(path, 'a');
    try {
      commit();
    } catch (error) {
      await next.close();
      throw error;
    }
    await this.handle.close();
    this.handle = next;
    this.size = 0;
  }

  /** Resolves once everything queued so far is written and applied. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async close(): Promise<void> {
    await this.idle();
    await this.handle.close();
  }

  private enqueue(item: QueueItem): void {
    this.queue.push(item);
    this.flushing ??= this.flush();
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const first = this.queue[0]!;
      if (first.kind === 'task') {
        this.queue.shift();
        await first.run().then(first.resolve, first.reject);
        continue;
      }
      const end = this.queue.findIndex((item) => item.kind === 'task');
      const batch = this.queue.splice(0, end < 0 ? this.queue.length : end) as PendingWrite[];
      const written = await this.write(batch);
      if (!written) continue;
      try {
        for (const w of batch) w.onDurable();
        this.afterBatch();
      } catch (error) {
        // The frames are durable but the log's view of them is not: refuse appends until a restart replays them.
        this.fail(error);
        for (const w of batch) w.reject(error);
        break;
      }
      for (const w of batch) w.resolve();
    }
    this.flushing = undefined;
  }

  /** Writes and syncs a batch; on failure cuts what was half written, so appends can resume once space returns. */
  private async write(batch: PendingWrite[]): Promise<boolean> {
    const bytes = batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((w) => w.frame));
    try {
      // A write may take only part of the bytes (a file-size limit, a disk filling up): go on until all are in or it fails.
      for (let done = 0; done < bytes.length;) done += (await this.handle.write(bytes, done)).bytesWritten;
      if (this.fsync === 'always') await this.handle.datasync();
      this.size += bytes.length;
      return true;
    } catch (error) {
      const refused = new EventLogUnavailableError(
        `event log: the journal cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing of this append was acknowledged`,
        { cause: error },
      );
      try {
        await this.handle.truncate(this.size);
      } catch {
        this.fail(refused);
      }
      for (const w of batch) w.reject(refused);
      return false;
    }
  }

  private fail(error: unknown): void {
    this.failure = error;
    for (const item of this.queue.splice(0)) item.reject(error);
  }
}
