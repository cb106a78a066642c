import { closeSync, ftruncateSync, openSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * An append-only file of framed entries: [u32 length][u32 crc32][payload]. One frame is one atomic
 * step of the log (records, offset commits, or both): a crash mid-write leaves a torn last frame,
 * which recovery detects by its length or checksum and cuts off, so a step is either whole or absent.
 */
const HEADER_BYTES = 8;

export interface RecoveredJournal<T> {
  entries: T[];
  /** Bytes cut from the end because the last frame was torn. */
  tornBytes: number;
}

export function recoverJournal<T>(path: string): RecoveredJournal<T> {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    return { entries: [], tornBytes: 0 };
  }
  const data = readFileSync(path);
  const entries: T[] = [];
  let position = 0;
  while (position + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(position);
    const checksum = data.readUInt32LE(position + 4);
    const end = position + HEADER_BYTES + length;
    if (end > data.length) break;
    const payload = data.subarray(position + HEADER_BYTES, end);
    if (crc32(payload) !== checksum) break;
    entries.push(JSON.parse(payload.toString('utf8')) as T);
    position = end;
  }
  const tornBytes = data.length - position;
  if (tornBytes > 0) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, position);
    closeSync(fd);
  }
  return { entries, tornBytes };
}

export function encodeFrame(entry: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(entry), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, HEADER_BYTES);
  return frame;
}

export type FsyncPolicy = 'always' | 'never';

interface PendingWrite {
  frame: Buffer;
  onDurable: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: frames queued while a write is in flight go out together in the next write, with
 * one fdatasync for all of them. `onDurable` runs in queue order once the frame is on disk (with
 * fsync 'always'), so readers never see a step that a crash could still take back.
 */
export class JournalWriter {
  private queue: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  /** After a failed write the file may end in a partial frame; appending behind it would bury good frames. */
  private failure: unknown;

  private constructor(
    private readonly handle: FileHandle,
    private readonly fsync: FsyncPolicy,
  ) {}

  static async open(path: string, fsync: FsyncPolicy): Promise<JournalWriter> {
    return new JournalWriter(await open(path, 'a'), fsync);
  }

  append(frame: Buffer, onDurable: () => void): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ frame, onDurable, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Resolves once everything queued so far is written and applied. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async close(): Promise<void> {
    await this.idle();
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.handle.write(batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((w) => w.frame)));
        if (this.fsync === 'always') await this.handle.datasync();
      } catch (error) {
        this.failure = error;
        for (const w of [...batch, ...this.queue]) w.reject(error);
        this.queue = [];
        break;
      }
      for (const w of batch) {
        w.onDurable();
        w.resolve();
      }
    }
    this.flushing = undefined;
  }
}
