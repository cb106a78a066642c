import type { OutgoingRecord } from '../event-log.port';

/**
 * What one produce request carries at most. kafkajs puts all of a request's records for one
 * partition into one record batch, and the broker refuses a batch above message.max.bytes (1 MB by
 * default) with MESSAGE_TOO_LARGE, a refusal a retry of the same batch meets again: a consumer
 * step emitting more than that (a ledger batch of ~1,500 commands, a snapshot of several chunks)
 * would be redelivered forever. Half of it leaves room for the record and batch framing.
 */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** Framing per record beyond its key, value and headers (length, attributes, deltas as varints), rounded up. */
const RECORD_OVERHEAD_BYTES = 32;

/**
 * Splits records into consecutive runs of at most `maxBytes` each, in order, so that sending the
 * runs one after another (one producer, one request in flight) keeps each partition's order. A
 * record larger than `maxBytes` goes alone; whether it fits is the broker's to say.
 */
export function splitIntoRequests(
  records: readonly OutgoingRecord[],
  maxBytes = MAX_REQUEST_BYTES,
): OutgoingRecord[][] {
  const requests: OutgoingRecord[][] = [];
  let current: OutgoingRecord[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = recordBytes(record);
    if (current.length > 0 && bytes + size > maxBytes) {
      requests.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}

/** What a record takes in a produce request, about. */
export function recordBytes(record: OutgoingRecord): number {
  let bytes = RECORD_OVERHEAD_BYTES + Buffer.byteLength(record.key) + Buffer.byteLength(record.value);
  for (const name in record.headers)
    bytes += RECORD_OVERHEAD_BYTES + Buffer.byteLength(name) + Buffer.byteLength(record.headers[name] ?? '');
  return bytes;
}
