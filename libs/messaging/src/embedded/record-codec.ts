import { HeaderNames } from '@exchange/contracts';
import type { JournalEntry, StoredRecord } from './journal-entry';
import type { SegmentRecord } from './segment-files';

/**
 * Payloads of the embedded log's frames. Version 1 was JSON, a record's value (itself JSON) a
 * string inside it: every quote escaped, header names spelled out in every record. Versions 2
 * and 3 are binary, key, header and value bytes stored as they are:
 *
 *   segment record: [version][offset][timestamp][key][headers][value: the rest of the payload]
 *   journal step:   [version][str: JSON of the topic definitions and commits][count]
 *                   count × ([str topic][partition][timestamp][key][headers][str value])
 *   numbers:        unsigned LEB128 varints (offsets, timestamps, lengths, counts)
 *   str, key:       [length][UTF-8]
 *   headers:        [count] count × ([name][header value]), a name being the 1-based index of
 *                   a well-known name below, or 0 and the name as a str; a header value is, in
 *                   version 2, a str; in version 3, 0 and a str, 1 and the 16 bytes of a
 *                   lowercase UUID (correlation ids), or 2 / 3: the same text as the record
 *                   value's first "id" / "type" string (the envelope's, which x-message-id and
 *                   x-message-type repeat)
 *
 * A payload starts with '{' (0x7b, version 1), 0x02 or 0x03: all three read, only 3 written.
 */
const V2 = 0x02;
const V3 = 0x03;
const JSON_OPEN = 0x7b;
/** Append only: a name's index is part of the stored format. */
const KNOWN_HEADERS = [
  HeaderNames.messageId,
  HeaderNames.messageType,
  HeaderNames.correlationId,
  HeaderNames.causationId,
] as const;
const KNOWN_INDEX = new Map<string, number>(KNOWN_HEADERS.map((name, i) => [name, i + 1]));
/** The most an unsigned varint of a safe integer takes. */
const MAX_VARINT_BYTES = 8;

export function encodeSegmentRecord(record: SegmentRecord): Buffer {
  const writer = new Writer(
    1 + 2 * MAX_VARINT_BYTES + textBytes(record.k) + headersBytes(record.h) + Buffer.byteLength(record.v),
  );
  writer.u8(V3);
  writer.varint(record.o);
  writer.varint(record.ts);
  writer.str(record.k);
  writer.headers(record.h, record.v);
  writer.rest(record.v);
  return writer.done();
}

export function decodeSegmentRecord(payload: Buffer): SegmentRecord {
  if (payload[0] === JSON_OPEN) return JSON.parse(payload.toString('utf8')) as SegmentRecord;
  const reader = new Reader(payload);
  const o = reader.varint();
  const ts = reader.varint();
  const k = reader.str();
  const headersOf = reader.headers();
  const record: SegmentRecord = { o, k, v: reader.rest(), ts };
  const h = headersOf(record.v);
  if (h) record.h = h;
  return record;
}

/** Offset, timestamp and key of a segment record, its headers and value left undecoded: what compaction compares. */
export function decodeSegmentRecordHead(payload: Buffer): Pick<SegmentRecord, 'o' | 'ts' | 'k'> {
  if (payload[0] === JSON_OPEN) {
    const { o, ts, k } = JSON.parse(payload.toString('utf8')) as SegmentRecord;
    return { o, ts, k };
  }
  const reader = new Reader(payload);
  const o = reader.varint();
  const ts = reader.varint();
  return { o, ts, k: reader.str() };
}

export function encodeJournalEntry(entry: JournalEntry): Buffer {
  const meta = JSON.stringify({ d: entry.d, c: entry.c });
  const records = entry.r ?? [];
  let size = 1 + textBytes(meta) + MAX_VARINT_BYTES;
  for (const r of records)
    size += textBytes(r.t) + 2 * MAX_VARINT_BYTES + textBytes(r.k) + headersBytes(r.h) + textBytes(r.v);
  const writer = new Writer(size);
  writer.u8(V3);
  writer.str(meta);
  writer.varint(records.length);
  for (const r of records) {
    writer.str(r.t);
    writer.varint(r.p);
    writer.varint(r.ts);
    writer.str(r.k);
    writer.headers(r.h, r.v);
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
    const headersOf = reader.headers();
    const record: StoredRecord = { t, p, k, v: reader.str(), ts };
    const h = headersOf(record.v);
    if (h) record.h = h;
    entry.r!.push(record);
  }
  return entry;
}

/** How a header's value is stored; part of the format. */
const HeaderValue = { Text: 0, Uuid: 1, EnvelopeId: 2, EnvelopeType: 3 } as const;
const FIELD_OPENING = { id: '"id":"', type: '"type":"' } as const;

/**
 * The first `"<field>":"…"` string of a record value, without escapes; undefined when there is
 * none. Encoding elides a header only when this gives back its exact text, and decoding runs the
 * same function on the same value, so the round trip is exact whatever the value holds.
 */
function envelopeField(value: string, field: 'id' | 'type'): string | undefined {
  const opening = FIELD_OPENING[field];
  const at = value.indexOf(opening);
  if (at < 0) return undefined;
  const from = at + opening.length;
  const end = value.indexOf('"', from);
  if (end < 0) return undefined;
  const text = value.slice(from, end);
  return text.includes('\\') ? undefined : text;
}

/** At most: a varint length and the UTF-8 bytes. */
const textBytes = (s: string): number => MAX_VARINT_BYTES + Buffer.byteLength(s);

/** At most: a UTF-8 byte per JavaScript char is at most 3; headers are short, so the bound costs little. */
function headersBytes(headers: Record<string, string> | undefined): number {
  let bytes = MAX_VARINT_BYTES;
  for (const name in headers) bytes += 2 + 2 * MAX_VARINT_BYTES + 3 * (name.length + headers[name]!.length);
  return bytes;
}

/** The record value's envelope fields a header may repeat (see envelopeField). */
interface Envelope {
  id: string | undefined;
  type: string | undefined;
}

/** Where a lowercase UUID has its dashes (8-4-4-4-12). */
const isUuidDash = (i: number): boolean => i === 8 || i === 13 || i === 18 || i === 23;

/** The value of a lowercase hex digit's char code, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/**
 * Writes the 16 bytes of `value` at `at` when it is a lowercase UUID, and says whether it was; when
 * it was not, bytes from `at` may be overwritten, which the caller writes over. One pass over the
 * chars instead of a regular expression, a dash-stripping copy and a hex decode: a correlation
 * and a causation id are written twice per record (journal, then segment).
 */
function writeUuid(buffer: Buffer, at: number, value: string): boolean {
  if (value.length !== 36) return false;
  let byte = at;
  let i = 0;
  while (i < 36) {
    if (isUuidDash(i)) {
      if (value.charCodeAt(i) !== 0x2d) return false;
      i += 1;
      continue;
    }
    const high = hexDigit(value.charCodeAt(i));
    const low = hexDigit(value.charCodeAt(i + 1));
    if (high < 0 || low < 0) return false;
    buffer[byte++] = high * 16 + low;
    i += 2;
  }
  return true;
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

  headers(headers: Record<string, string> | undefined, recordValue: string): void {
    const names = headers === undefined ? [] : Object.keys(headers);
    this.varint(names.length);
    if (names.length === 0) return;
    // Scanned once per record, not once per header: 3-4 headers each compared with both fields.
    const envelope: Envelope = { id: envelopeField(recordValue, 'id'), type: envelopeField(recordValue, 'type') };
    for (const name of names) {
      const known = KNOWN_INDEX.get(name);
      this.varint(known ?? 0);
      if (known === undefined) this.str(name);
      this.headerValue(headers![name]!, envelope);
    }
  }

  private headerValue(value: string, envelope: Envelope): void {
    if (value === envelope.id) return this.varint(HeaderValue.EnvelopeId);
    if (value === envelope.type) return this.varint(HeaderValue.EnvelopeType);
    if (writeUuid(this.buffer, this.at + 1, value)) {
      this.varint(HeaderValue.Uuid);
      this.at += 16;
      return;
    }
    this.varint(HeaderValue.Text);
    this.str(value);
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
    if (buffer[0] !== V2 && buffer[0] !== V3) throw new Error(`record codec: unknown payload version ${buffer[0]}`);
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

  /** The headers, finished once the record value is read (a header may repeat a field of it). */
  headers(): (recordValue: string) => Record<string, string> | undefined {
    const count = this.varint();
    if (count === 0) return () => undefined;
    const read: [string, (recordValue: string) => string | undefined][] = [];
    for (let i = 0; i < count; i++) {
      const known = this.varint();
      const name = known === 0 ? this.str() : KNOWN_HEADERS[known - 1];
      if (name === undefined) throw new Error(`record codec: unknown header name index ${known}`);
      read.push([name, this.headerValue()]);
    }
    return (recordValue) => {
      const headers: Record<string, string> = {};
      for (const [name, valueOf] of read) {
        const value = valueOf(recordValue);
        if (value === undefined)
          throw new Error(`record codec: header ${name} names a field its record value does not hold`);
        headers[name] = value;
      }
      return headers;
    };
  }

  private headerValue(): (recordValue: string) => string | undefined {
    const kind = this.buffer[0] === V2 ? HeaderValue.Text : this.varint();
    switch (kind) {
      case HeaderValue.Text: {
        const text = this.str();
        return () => text;
      }
      case HeaderValue.Uuid: {
        const hex = this.buffer.toString('hex', this.at, this.at + 16);
        this.at += 16;
        const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
        return () => uuid;
      }
      case HeaderValue.EnvelopeId:
        return (recordValue) => envelopeField(recordValue, 'id');
      case HeaderValue.EnvelopeType:
        return (recordValue) => envelopeField(recordValue, 'type');
      default:
        throw new Error(`record codec: unknown header value kind ${kind}`);
    }
  }

  rest(): string {
    const s = this.buffer.toString('utf8', this.at);
    this.at = this.buffer.length;
    return s;
  }
}
