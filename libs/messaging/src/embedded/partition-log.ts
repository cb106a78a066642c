import {
  closeSync,
  existsSync,
  fsync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CorruptEventLogError } from '../event-log-errors';
import type { IncomingRecord } from '../event-log.port';
import { attachProduced } from '../records/decode-once';
import { decodeFrames, encodeFrame } from './journal-file';
import type { LruCache } from './lru-cache';
import { decodeSegmentRecord, encodeSegmentRecord } from './record-codec';
import { inflateBlocks } from './segment-compression';
import {
  fileSize,
  indexFileName,
  readIndex,
  type SegmentMeta,
  type SegmentRecord,
  type SegmentSettings,
  segmentFileName,
  writeAll,
} from './segment-files';
import { syncFolderAsync } from './segment-manifest';

export type { SegmentMeta, SegmentRecord, SegmentSettings } from './segment-files';
export { indexFileName } from './segment-files';

/** fsync on the threadpool. */
const fsyncFile = (fd: number): Promise<void> =>
  new Promise((done, fail) => fsync(fd, (error) => (error ? fail(error) : done())));

/** Decoded records from one index entry to the next; `end` is the offset after its range. */
export interface Block {
  records: IncomingRecord[];
  end: number;
}
export type CachedValue = Block | Float64Array;

/** Memory a decoded block holds, roughly: UTF-16 strings and the record objects. */
const blockCost = (bytes: number, records: number): number => bytes * 2 + records * 120;

/**
 * One topic-partition of the embedded log: segment files of framed records, each with a sparse
 * index (offset → byte position every `indexIntervalBytes`). The active segment's last block stays
 * in memory; everything older is read from disk on demand through the shared, bounded cache. Files
 * are appended without fsync: the write-ahead log holds every record until a checkpoint has synced
 * the segments, so a crash loses nothing that the log acknowledged.
 */
export class PartitionLog {
  private activeFd = -1;
  private indexFd = -1;
  private activeIndex: number[] = [];
  private openBlock: { pos: number; records: IncomingRecord[]; bytes: number } | undefined;
  private pending: Buffer[] = [];
  private pendingIndex: number[] = [];
  /** Sealed since the last checkpoint: synced and closed there. */
  private unsynced: number[] = [];
  /** Written since the last sync: a checkpoint leaves untouched partitions alone. */
  private dirty = false;
  /**
   * Files created in the folder (and the folder itself) since the last sync: their directory
   * entries must be durable before a manifest names them, or a power loss could lose a whole file.
   */
  private newFiles = false;
  private newFolder = false;
  /** The last sync() in progress: the next one waits for it. */
  private syncing: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    readonly topic: string,
    readonly partition: number,
    private segmentList: SegmentMeta[],
    private readonly settings: SegmentSettings,
    private readonly cache: LruCache<CachedValue>,
  ) {}

  static create(
    dir: string,
    topic: string,
    partition: number,
    settings: SegmentSettings,
    cache: LruCache<CachedValue>,
  ): PartitionLog {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir)) unlinkSync(join(dir, file));
    const log = new PartitionLog(dir, topic, partition, [], settings, cache);
    log.startSegment(0);
    log.newFolder = true;
    return log;
  }

  /** Opens what the manifest lists: sizes checked, the active segment cut back to its checkpoint, strays removed. */
  static restore(
    dir: string,
    topic: string,
    partition: number,
    segments: SegmentMeta[],
    settings: SegmentSettings,
    cache: LruCache<CachedValue>,
  ): PartitionLog {
    // A file not listed is a roll's (or a compaction's) since the checkpoint: the replay rolls into the
    // same name and appends ('a+'), so its bytes must go, or they would sit in front of the replayed records.
    const known = new Set(segments.flatMap((s) => [s.file, indexFileName(s.file)]));
    for (const file of existsSync(dir) ? readdirSync(dir) : []) if (!known.has(file)) unlinkSync(join(dir, file));
    for (const segment of segments) {
      const path = join(dir, segment.file);
      if (!existsSync(path))
        throw new CorruptEventLogError(
          path,
          0,
          `the segment of offsets ${segment.base}..${segment.next - 1} is missing`,
        );
      const size = fileSize(path);
      if (segment.sealed ? size !== segment.bytes : size < segment.bytes) {
        throw new CorruptEventLogError(
          path,
          Math.min(size, segment.bytes),
          `it holds ${size} bytes where its checkpoint says ${segment.bytes} (offsets ${segment.base}..${segment.next - 1})`,
        );
      }
    }
    const log = new PartitionLog(
      dir,
      topic,
      partition,
      segments.map((s) => ({ ...s })),
      settings,
      cache,
    );
    log.reopenActive();
    return log;
  }

  get segments(): readonly SegmentMeta[] {
    return this.segmentList;
  }

  /** The offset the next record gets (the high watermark). */
  get end(): number {
    return this.active.next;
  }

  /** The first offset still stored. */
  get start(): number {
    return this.segmentList[0]!.base;
  }

  get sizeBytes(): number {
    return this.segmentList.reduce((sum, s) => sum + s.bytes, 0);
  }

  /** `produced`: the producer's message, kept beside the in-memory record only (attachProduced). */
  append(record: Omit<SegmentRecord, 'o'>, produced?: unknown): IncomingRecord {
    let active = this.active;
    if (active.bytes >= this.settings.segmentBytes) active = this.roll();
    const offset = active.next;
    const stored: SegmentRecord = { o: offset, k: record.k, v: record.v, ts: record.ts };
    if (record.h) stored.h = record.h;
    const frame = encodeFrame(encodeSegmentRecord(stored));
    if (!this.openBlock || this.openBlock.bytes >= this.settings.indexIntervalBytes) {
      this.closeBlock();
      this.openBlock = { pos: active.bytes, records: [], bytes: 0 };
      this.activeIndex.push(offset, active.bytes);
      this.pendingIndex.push(offset, active.bytes);
    }
    const incoming: IncomingRecord = {
      topic: this.topic,
      partition: this.partition,
      offset,
      key: record.k,
      value: record.v,
      headers: record.h ?? {},
      timestamp: record.ts,
    };
    if (produced !== undefined) attachProduced(incoming, produced);
    this.openBlock.records.push(incoming);
    this.openBlock.bytes += frame.length;
    this.pending.push(frame);
    active.bytes += frame.length;
    active.next = offset + 1;
    active.maxTs = Math.max(active.maxTs, record.ts);
    return incoming;
  }

  /** Writes what append() buffered; called once per journal step. */
  flush(): void {
    if (this.pending.length > 0 || this.pendingIndex.length > 0) this.dirty = true;
    if (this.pending.length > 0)
      writeAll(this.activeFd, this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
    if (this.pendingIndex.length > 0) writeAll(this.indexFd, Buffer.from(new Float64Array(this.pendingIndex).buffer));
    this.pending = [];
    this.pendingIndex = [];
  }

  /**
   * Makes every segment written so far durable: what a checkpoint needs before it may drop the
   * journal behind it. The fsyncs run on the threadpool, so the event loop serves requests and
   * appends go on meanwhile (done inline, a checkpoint's fsyncs of every partition held the loop for
   * 50–250 ms under load). Calls run one after another: one resolves only once what an earlier
   * one took over is durable too, so a checkpoint never names bytes an earlier sync is still on.
   */
  sync(): Promise<void> {
    const run = this.syncing.catch(() => undefined).then(() => this.syncWritten());
    this.syncing = run;
    return run;
  }

  private async syncWritten(): Promise<void> {
    this.flush();
    const taken = { dirty: this.dirty, newFolder: this.newFolder, newFiles: this.newFiles };
    const files = [...(taken.dirty ? [this.activeFd, this.indexFd] : []), ...this.unsynced];
    const sealed = this.unsynced.splice(0);
    this.dirty = this.newFolder = this.newFiles = false;
    try {
      for (const fd of files) await fsyncFile(fd);
      if (taken.newFolder) await syncFolderAsync(dirname(this.dir));
      if (taken.newFiles) await syncFolderAsync(this.dir);
    } catch (error) {
      // Not known durable: the next sync takes it over again.
      this.dirty ||= taken.dirty;
      this.newFolder ||= taken.newFolder;
      this.newFiles ||= taken.newFiles;
      this.unsynced.unshift(...sealed);
      throw error;
    }
    for (const fd of sealed) closeSync(fd);
  }

  /** After the last sync() finished (a checkpoint, or EmbeddedEventLog.close awaiting it). */
  close(): void {
    this.flush();
    for (const fd of [this.activeFd, this.indexFd, ...this.unsynced.splice(0)]) closeSync(fd);
  }

  /** Seals the active segment (even a small one) and starts the next: retention by time needs it closed. */
  roll(): SegmentMeta {
    this.flush();
    this.closeBlock();
    const sealed = this.active;
    sealed.sealed = true;
    this.cache.set(`${this.dir}/${sealed.file}#index`, new Float64Array(this.activeIndex), this.activeIndex.length * 8);
    this.unsynced.push(this.activeFd, this.indexFd);
    return this.startSegment(sealed.next);
  }

  /** Puts `compressed` in the place of the sealed segment named `plain` and drops what the cache holds of the plain file. */
  replaceWithCompressed(plain: string, compressed: SegmentMeta): void {
    const at = this.segmentList.findIndex((s) => s.file === plain);
    if (at < 0 || this.segmentList[at] === this.active) return;
    const index = this.indexOf(this.segmentList[at]!);
    for (let i = 1; i < index.length; i += 2) this.cache.delete(`${this.dir}/${plain}@${index[i]}`);
    this.cache.delete(`${this.dir}/${plain}#index`);
    this.segmentList[at] = compressed;
  }

  /** Replaces the sealed segments (retention, compaction); the active one stays as it is. */
  replaceSealed(sealed: SegmentMeta[]): void {
    this.segmentList = [...sealed, this.active];
  }

  /** Up to `max` records from `offset` on (or from the first one stored, when it was deleted). */
  read(offset: number, max: number): IncomingRecord[] {
    const out: IncomingRecord[] = [];
    let at = Math.max(offset, this.start);
    let s = this.segmentAt(at);
    while (out.length < max && s < this.segmentList.length) {
      const segment = this.segmentList[s]!;
      if (at >= segment.next) {
        s += 1;
        if (s < this.segmentList.length) at = Math.max(at, this.segmentList[s]!.base);
        continue;
      }
      const block = this.blockAt(segment, at);
      for (const record of block.records) {
        if (record.offset >= at && out.length < max) out.push(record);
      }
      at = block.end;
    }
    return out;
  }

  private get active(): SegmentMeta {
    return this.segmentList[this.segmentList.length - 1]!;
  }

  private startSegment(base: number): SegmentMeta {
    const segment: SegmentMeta = { file: segmentFileName(base), base, next: base, bytes: 0, maxTs: 0, sealed: false };
    this.segmentList.push(segment);
    this.activeFd = openSync(join(this.dir, segment.file), 'a+');
    this.indexFd = openSync(join(this.dir, indexFileName(segment.file)), 'a+');
    this.activeIndex = [];
    this.openBlock = undefined;
    this.newFiles = true;
    return segment;
  }

  private reopenActive(): void {
    const active = this.active;
    this.activeFd = openSync(join(this.dir, active.file), 'a+');
    ftruncateSync(this.activeFd, active.bytes);
    this.indexFd = openSync(join(this.dir, indexFileName(active.file)), 'a+');
    const entries = readIndex(join(this.dir, indexFileName(active.file)));
    let kept = 0;
    while (kept < entries.length && entries[kept + 1]! < active.bytes) kept += 2;
    ftruncateSync(this.indexFd, kept * 8);
    this.activeIndex = Array.from(entries.subarray(0, kept));
    if (kept === 0) return;
    const pos = this.activeIndex[kept - 1]!;
    const records: IncomingRecord[] = [];
    this.decode(active, pos, active.bytes, (r) => records.push(this.toIncoming(r)));
    this.openBlock = { pos, records, bytes: active.bytes - pos };
  }

  private closeBlock(): void {
    if (!this.openBlock) return;
    const { pos, records, bytes } = this.openBlock;
    this.cache.set(
      `${this.dir}/${this.active.file}@${pos}`,
      { records, end: this.active.next },
      blockCost(bytes, records.length),
    );
    this.openBlock = undefined;
  }

  private segmentAt(offset: number): number {
    let lo = 0;
    let hi = this.segmentList.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segmentList[mid]!.base <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** A segment's sparse index (offset, byte position pairs), through the cache. */
  indexOf(segment: SegmentMeta): ArrayLike<number> {
    if (segment === this.active) return this.activeIndex;
    const key = `${this.dir}/${segment.file}#index`;
    const cached = this.cache.get(key) as Float64Array | undefined;
    if (cached) return cached;
    const entries = readIndex(join(this.dir, indexFileName(segment.file)));
    this.cache.set(key, entries, entries.byteLength);
    return entries;
  }

  private blockAt(segment: SegmentMeta, offset: number): Block {
    const index = this.indexOf(segment);
    const entries = index.length / 2;
    if (entries === 0) return { records: [], end: segment.next };
    let lo = 0;
    let hi = entries - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (index[mid * 2]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const pos = index[lo * 2 + 1]!;
    const last = lo === entries - 1;
    if (last && segment === this.active && this.openBlock)
      return { records: this.openBlock.records, end: segment.next };
    const key = `${this.dir}/${segment.file}@${pos}`;
    const cached = this.cache.get(key) as Block | undefined;
    if (cached) return cached;
    const to = last ? segment.bytes : index[lo * 2 + 3]!;
    const records: IncomingRecord[] = [];
    const rawBytes = this.decode(segment, pos, to, (r) => records.push(this.toIncoming(r)));
    const block = { records, end: last ? segment.next : index[lo * 2 + 2]! };
    this.cache.set(key, block, blockCost(rawBytes, records.length));
    return block;
  }

  /** Decodes the records of bytes [from, to) of a segment's file (inflated first when compressed); returns their plain size. */
  private decode(segment: SegmentMeta, from: number, to: number, onRecord: (record: SegmentRecord) => void): number {
    // Records a consumer of unsynced records may read are in the active segment before their step is durable.
    if (segment === this.active) this.flush();
    const path = join(this.dir, segment.file);
    const data = Buffer.allocUnsafe(to - from);
    const fd = segment === this.active ? this.activeFd : openSync(path, 'r');
    try {
      let read = 0;
      while (read < data.length) {
        const n = readSync(fd, data, read, data.length - read, from + read);
        if (n === 0) break;
        read += n;
      }
    } finally {
      if (fd !== this.activeFd) closeSync(fd);
    }
    const holds = `${this.topic}/${this.partition} (offsets ${segment.base}..${segment.next - 1})`;
    const plain = segment.codec ? inflateBlocks(data, from, path, holds) : data;
    const end = decodeFrames(plain, 0, plain.length, (payload) => onRecord(decodeSegmentRecord(payload)));
    if (end < plain.length)
      throw new CorruptEventLogError(
        path,
        // Inside an inflated block a byte of the file means nothing: name the block's.
        segment.codec ? from : from + end,
        `a record of ${holds} fails its length or checksum`,
      );
    return plain.length;
  }

  private toIncoming(r: SegmentRecord): IncomingRecord {
    return {
      topic: this.topic,
      partition: this.partition,
      offset: r.o,
      key: r.k,
      value: r.v,
      headers: r.h ?? {},
      timestamp: r.ts,
    };
  }
}
