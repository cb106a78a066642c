import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptEventLogError } from '../event-log-errors';

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
