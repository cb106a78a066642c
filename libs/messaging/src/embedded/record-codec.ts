import { HeaderNames } from '@exchange/contracts';
import type { JournalEntry, StoredRecord } from './journal-entry';
import type { SegmentRecord } from './segment-files';

/**
 * Payloads of the embedded log's frames. Version 1 was JSON, a record's value (itself JSON) a
 * string inside it: every quote escaped, header names spelled out in every record. Version 2 is
 * binary, key, header and value bytes stored as they are:
 *
 *   segment record: [0x02][offset][timestamp][key][headers][value: the rest of the payload]
 *   journal step:   [0x02][str: JSON of the topic definitions and commits][count]
 *                   count × ([str topic][partition][timestamp][key][headers][str value])
 *   numbers:        unsigned LEB128 varints (offsets, timestamps, lengths, counts)
 *   str, key:       [length][UTF-8]
 *   headers:        [count] count × ([name][str value]), a name being the 1-based index of a
 *                   well-known name below, or 0 and the name as a str
 *
 * A version 1 payload starts with '{' (0x7b), a version 2 one with 0x02: both read, only 2 written.
 */
const V2 = 0x02;
const JSON_OPEN = 0x7b;
/** Append only: a name's index is part of the stored format. */
const KNOWN_HEADERS = [HeaderNames.messageId, HeaderNames.messageType, HeaderNames.correlationId, HeaderNames.causationId] as const;
const KNOWN_INDEX = new Map<string, number>(KNOWN_HEADERS.map((name, i) => [name, i + 1]));
/** The most an unsigned varint of a safe integer takes. */
const MAX_VARINT_BYTES = 8;

export function encodeSegmentRecord(record: SegmentRecord): Buffer {
  const writer = new Writer(1 + 2 * MAX_VARINT_BYTES + textBytes(record.k) + headersBytes(record.h) + Buffer.byteLength(record.v));
  writer.u8(V2);
  writer.varint(record.o);
  writer.varint(record.ts);
  writer.str(record.k);
  writer.headers(record.h);
  writer.rest(record.v);
  return writer.done();
}

export function decodeSegmentRecord(payload: Buffer): SegmentRecord {
  if (payload[0] === JSON_OPEN) return JSON.parse(payload.toString('utf8')) as SegmentRecord;
  const reader = new Reader(payload);
  const o = reader.varint();
  const ts = reader.varint();
  const k = reader.str();
  const h = reader.headers();
  const record: SegmentRecord = { o, k, v: reader.rest(), ts };
  if (h) record.h = h;
  return record;
}

export function encodeJournalEntry(entry: JournalEntry): Buffer {
  const meta = JSON.stringify({ d: entry.d, c: entry.c });
  const records = entry.r ?? [];
  let size = 1 + textBytes(meta) + MAX_VARINT_BYTES;
  for (const r of records) size += textBytes(r.t) + 2 * MAX_VARINT_BYTES + textBytes(r.k) + headersBytes(r.h) + textBytes(r.v);
  const writer = new Writer(size);
  writer.u8(V2);
  writer.str(meta);
  writer.varint(records.length);
  for (const r of records) {
    writer.str(r.t);
    writer.varint(r.p);
    writer.varint(r.ts);
    writer.str(r.k);
    writer.headers(r.h);
    writer.str(r.v);
  }
  return writer.done();
}

export function decodeJournalEntry(payload: Buffer): JournalEntry {
  if (payload[0] === JSON_OPEN) return JSON.parse(payload.toString('utf8')) as JournalEntry;
  const reader = new Reader(payload);
  const entry = JSON.parse(reader.str()) as JournalEntry;
  const count = reader.varint();
  if (count > 0) entry.r = [];
  for (let i = 0; i < count; i++) {
    const t = reader.str();
    const p = reader.varint();
    const ts = reader.varint();
    const k = reader.str();
    const h = reader.headers();
    const record: StoredRecord = { t, p, k, v: reader.str(), ts };
    if (h) record.h = h;
    entry.r!.push(record);
  }
  return entry;
}

/** At most: a varint length and the UTF-8 bytes. */
const textBytes = (s: string): number => MAX_VARINT_BYTES + Buffer.byteLength(s);

function headersBytes(headers: Record<string, string> | undefined): number {
  let bytes = MAX_VARINT_BYTES;
  for (const [name, value] of Object.entries(headers ?? {})) bytes += 1 + textBytes(name) + textBytes(value);
  return bytes;
}

/** Writes into one buffer sized for the worst case up front; `done` returns the part written. */
class Writer {
  private readonly buffer: Buffer;
  private at = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  u8(n: number): void {
    this.at = this.buffer.writeUInt8(n, this.at);
  }

  /** Unsigned LEB128 of a safe integer: arithmetic, not bit operators, which stop at 32 bits. */
  varint(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`record codec: ${n} is not an unsigned safe integer`);
    let rest = n;
    while (rest >= 0x80) {
      this.buffer[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.at++] = rest;
  }

  str(s: string): void {
    const length = Buffer.byteLength(s);
    this.varint(length);
    this.at += this.buffer.write(s, this.at, length, 'utf8');
  }

  headers(headers: Record<string, string> | undefined): void {
    const entries = Object.entries(headers ?? {});
    this.varint(entries.length);
    for (const [name, value] of entries) {
      const known = KNOWN_INDEX.get(name);
      this.varint(known ?? 0);
      if (known === undefined) this.str(name);
      this.str(value);
    }
  }

  rest(s: string): void {
    this.at += this.buffer.write(s, this.at, 'utf8');
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}

class Reader {
  private at = 1;

  constructor(private readonly buffer: Buffer) {
    if (buffer[0] !== V2) throw new Error(`record codec: unknown payload version ${buffer[0]}`);
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.at++];
      if (byte === undefined) throw new Error('record codec: a number runs past the end of the payload');
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
    }
  }

  str(): string {
    const length = this.varint();
    const s = this.buffer.toString('utf8', this.at, this.at + length);
    this.at += length;
    return s;
  }

  headers(): Record<string, string> | undefined {
    const count = this.varint();
    if (count === 0) return undefined;
    const headers: Record<string, string> = {};
    for (let i = 0; i < count; i++) {
      const known = this.varint();
      const name = known === 0 ? this.str() : KNOWN_HEADERS[known - 1];
      if (name === undefined) throw new Error(`record codec: unknown header name index ${known}`);
      headers[name] = this.str();
    }
    return headers;
  }

  rest(): string {
    const s = this.buffer.toString('utf8', this.at);
    this.at = this.buffer.length;
    return s;
  }
}
