import { isDeepStrictEqual } from 'node:util';
import type { IncomingRecord } from '../event-log.port';

/** Where a record object keeps what its decoders made of it: decoder → value. */
const DECODED = Symbol('decoded');
/** Where a record object appended in this process keeps the message its producer built. */
const PRODUCED = Symbol('produced');

type Memo = IncomingRecord & { [DECODED]?: Map<unknown, unknown>; [PRODUCED]?: unknown };

/**
 * Under tests: shared values are frozen (a consumer, or a producer after it appended, that mutates
 * one fails there), and a producer's message is checked against what each decoder makes of the
 * record's text (a message a decoder would refuse, strip or upcast fails there).
 */
const checkShared = process.env.NODE_ENV === 'test';

/**
 * Keeps `message`, the value its producer serialised into the record's text, beside the record
 * object the embedded log hands this process's consumers, so that they take it instead of parsing
 * and schema-checking the text again: the producer is code of this process, and its message is
 * what the decoders would make of the text (checked under tests). Records read back from disk or
 * from Kafka carry none and are decoded: those are the trust boundaries. The message is shared:
 * neither its producer nor its consumers may mutate it (frozen under tests to prove it).
 */
export function attachProduced(record: IncomingRecord, message: unknown): void {
  if (checkShared) deepFreeze(message);
  // Not enumerable: a record copied or compared (tests' toEqual) shows only its fields.
  Object.defineProperty(record, PRODUCED, { value: message });
}

/**
 * What `decode` makes of the record's value: the producer's message when the record was appended
 * in this process (attachProduced), decoded otherwise; not kept. For a topic with one consumer in
 * the process (a decider's input), where keeping the value would only hold memory.
 */
export function decodeRecord<T>(record: IncomingRecord, decode: (value: string) => T): T {
  const produced = (record as Memo)[PRODUCED];
  if (produced === undefined) return decode(record.value);
  if (checkShared) checkProduced(record, decode, produced);
  return produced as T;
}

/**
 * What `decode` makes of the record's value, computed once per record object and shared by every
 * consumer that asks with the same decoder (or the producer's message, as decodeRecord). The
 * embedded log hands each record object to all the in-process consumers of its topic, so a
 * record is parsed and schema-checked at most once per process instead of once per consumer; the
 * Kafka adapter builds fresh objects per consumer, so each consumer there decodes (and validates)
 * what entered the process. A decoder is a pure function of the value (it reads nothing else),
 * and its result is shared: consumers must not mutate it (frozen under tests to prove it).
 */
export function decodeOnce<T>(record: IncomingRecord, decode: (value: string) => T): T {
  const memo = record as Memo;
  if (memo[PRODUCED] !== undefined) return decodeRecord(record, decode);
  let values = memo[DECODED];
  if (values === undefined) {
    values = new Map();
    Object.defineProperty(memo, DECODED, { value: values });
  } else if (values.has(decode)) {
    return values.get(decode) as T;
  }
  const value = decode(record.value);
  if (checkShared) deepFreeze(value);
  values.set(decode, value);
  return value;
}

function checkProduced(record: IncomingRecord, decode: (value: string) => unknown, produced: unknown): void {
  const decoded = decode(record.value);
  if (isDeepStrictEqual(decoded, produced)) return;
  const fault = new Error(
    `decode: the message the producer appended at ${record.topic}/${record.partition}/${record.offset} is not what ` +
      `${decode.name || 'its decoder'} makes of its text: ${JSON.stringify(produced)} against ${JSON.stringify(decoded)}`,
  );
  // Thrown again outside the consumer, whose failure would only be retried: the test fails.
  process.nextTick(() => {
    throw fault;
  });
  throw fault;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
