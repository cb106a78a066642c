import type { IncomingRecord } from '../event-log.port';

/** Where a record object keeps what its decoders made of it: decoder → value. */
const DECODED = Symbol('decoded');

type Memo = IncomingRecord & { [DECODED]?: Map<unknown, unknown> };

/** Freezes decoded values in tests, so that a consumer mutating a shared value fails there. */
const freezeShared = process.env.NODE_ENV === 'test';

/**
 * What `decode` makes of the record's value, computed once per record object and shared by every
 * consumer that asks with the same decoder. The embedded log hands each record object to all the
 * in-process consumers of its topic, so a record is parsed and schema-checked once per process
 * instead of once per consumer; the Kafka adapter builds fresh objects per consumer, so each
 * consumer there decodes (and validates) what entered the process. A decoder is a pure function
 * of the value (it reads nothing else), and its result is shared: consumers must not mutate it
 * (frozen under tests to prove it).
 */
export function decodeOnce<T>(record: IncomingRecord, decode: (value: string) => T): T {
  const memo = record as Memo;
  let values = memo[DECODED];
  if (values === undefined) {
    values = new Map();
    // Not enumerable: a record copied or compared (tests' toEqual) shows only its fields.
    Object.defineProperty(memo, DECODED, { value: values });
  } else if (values.has(decode)) {
    return values.get(decode) as T;
  }
  const value = decode(record.value);
  if (freezeShared) deepFreeze(value);
  values.set(decode, value);
  return value;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
