import { closeSync, existsSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { CorruptEventLogError } from '../event-log-errors';
import type { SegmentCodec } from './segment-compression';

// The files of one partition's segments: names, the sparse index format (pairs of float64
// offset, byte position) and whole-file writes that a short write cannot leave half done.

/** A segment as the manifest lists it. `next` is the offset after its range, records or not. */
export interface SegmentMeta {
  file: string;
  base: number;
  next: number;
  bytes: number;
  /** Append time of its newest record (0 when empty): retention by time compares this. */
  maxTs: number;
  sealed: boolean;
  /** Set once a sealed segment was rewritten compressed (segment-compression.ts); `bytes` is then the compressed file's size. */
  codec?: SegmentCodec;
}

export interface SegmentSettings {
  segmentBytes: number;
  indexIntervalBytes: number;
}

/** A record as a segment stores it: its offset travels with it, so compaction keeps offsets. */
export interface SegmentRecord {
  o: number;
  k: string;
  v: string;
  h?: Record<string, string>;
  ts: number;
}

const INDEX_ENTRY_BYTES = 16;
export const segmentFileName = (base: number, generation = 0): string =>
  `${String(base).padStart(20, '0')}${generation > 0 ? `.c${generation}` : ''}.log`;
export const indexFileName = (file: string): string => file.replace(/\.log$/, '.index');

/** writeSync may take part of the bytes (a file-size limit, a disk filling up); the next call then throws. */
export function writeAll(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done);
}

export function fileSize(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

export function readIndex(path: string): Float64Array {
  if (!existsSync(path)) throw new CorruptEventLogError(path, 0, 'the index of this segment is missing');
  const data = readFileSync(path);
  const whole = data.length - (data.length % INDEX_ENTRY_BYTES);
  return new Float64Array(data.buffer.slice(data.byteOffset, data.byteOffset + whole));
}
