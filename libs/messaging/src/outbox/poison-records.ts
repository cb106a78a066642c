import { Topics } from '@exchange/contracts';
import type { IncomingBatch, IncomingRecord, OutgoingRecord } from '../event-log.port';

/**
 * A record its consumer can never apply, whatever the retries: it does not parse as a command, or
 * a check found it invalid. Thrown by a processor so the poison handling below isolates it.
 */
export class PoisonRecord extends Error {
  override name = 'PoisonRecord';
}

/**
 * PostgreSQL's SQLSTATE classes that depend on the data written, so the same batch fails the same
 * way on every retry: 22 data exception (22021 a NUL in text, 22P05 an escape jsonb refuses, 22003
 * a number out of range), 23 integrity constraint violation, 54 program limit exceeded (a row
 * too large for an index). Everything else (connections lost, 40 serialization, 53 resources, 57
 * a server shutting down, 42 a schema not migrated) says nothing about the record, and is retried:
 * parking records because the database is down would lose them.
 */
const DATA_DEPENDENT_SQLSTATE = /^(22|23|54)/;

export function sqlStateOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const driver = (error as { driverError?: { code?: unknown } }).driverError?.code;
  return typeof driver === 'string' ? driver : undefined;
}

/** True when retrying cannot help: the failure follows from the records themselves. */
export function isDeterministicFailure(error: unknown): boolean {
  if (error instanceof PoisonRecord) return true;
  const state = sqlStateOf(error);
  return state !== undefined && DATA_DEPENDENT_SQLSTATE.test(state);
}

/** What a log line and a dead letter say about an error: its code and first line, no query parameters. */
export function describeFailure(error: unknown): { code?: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  return { code: sqlStateOf(error), message: message.split('\n')[0]!.slice(0, 500) };
}

export type PoisonOutcome = 'rejected' | 'parked';

export interface PoisonHandling {
  /** Applies `records` in order as one step that commits the input through `nextOffset`. */
  apply(records: IncomingRecord[], nextOffset: number): Promise<void>;
  /** Journals a refusal of the record's command as its own step; false when it cannot (not a command, or a fact to keep). */
  reject(record: IncomingRecord, nextOffset: number, failure: unknown): Promise<boolean>;
  /** Commits past the record without applying it and sends it to the dead letters, in one step. */
  park(record: IncomingRecord, nextOffset: number, failure: unknown): Promise<void>;
  /** Reports the decision (error log, metric). */
  decided(outcome: PoisonOutcome, record: IncomingRecord, failure: unknown): void;
}

/**
 * Applies a batch so that one bad record never blocks its partition. The batch goes as one step;
 * when that fails for a reason retrying cannot cure, it is split in halves, each applied as its
 * own step and split again while it fails (a few steps per bad record, not one per record of a
 * batch of thousands). A record that fails alone is decided as a rejection (the requester gets an
 * answer) or, when no rejection can be journaled, parked in the dead letters. The decision is
 * committed like any other, so a restart or a replay never meets the record again. A transient
 * failure (at any point) is thrown: the consumer retries the partition after its back-off, from
 * the checkpoint, and what was committed meanwhile is not applied twice.
 */
export async function applyIsolatingPoison(
  batch: IncomingBatch,
  records: IncomingRecord[],
  handling: PoisonHandling,
): Promise<void> {
  const last = records[records.length - 1];
  // A part ending inside the batch commits through its last record; the part ending the batch through the batch's end.
  const nextOffsetAfter = (part: IncomingRecord[]): number =>
    part[part.length - 1] === last ? batch.nextOffset : part[part.length - 1]!.offset + 1;
  const applyPart = async (part: IncomingRecord[]): Promise<void> => {
    let failure: unknown;
    try {
      await handling.apply(part, nextOffsetAfter(part));
      return;
    } catch (error) {
      if (!isDeterministicFailure(error)) throw error;
      failure = error;
    }
    if (part.length > 1) {
      const half = Math.floor(part.length / 2);
      await applyPart(part.slice(0, half));
      await applyPart(part.slice(half));
      return;
    }
    await decidePoison(part[0]!, nextOffsetAfter(part), failure, handling);
  };
  if (records.length > 0) await applyPart(records);
}

async function decidePoison(
  record: IncomingRecord,
  nextOffset: number,
  failure: unknown,
  handling: PoisonHandling,
): Promise<void> {
  let rejected = false;
  try {
    rejected = await handling.reject(record, nextOffset, failure);
  } catch (error) {
    if (!isDeterministicFailure(error)) throw error;
  }
  if (!rejected) await handling.park(record, nextOffset, failure);
  handling.decided(rejected ? 'rejected' : 'parked', record, failure);
}

/**
 * The dead letter of a parked record: everything needed to see it and to publish it again once
 * its cause is fixed. Its value is JSON, so text that PostgreSQL refuses (a NUL) travels escaped,
 * and its key is the original key with control characters removed.
 */
export function deadLetterOf(service: string, record: IncomingRecord, failure: unknown): OutgoingRecord {
  const key = record.key.replace(/[\u0000-\u001f\u007f-\u009f]|[\ud800-\udfff]/gu, '');
  const letter = {
    service,
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    key: record.key,
    value: record.value,
    headers: record.headers,
    error: describeFailure(failure),
  };
  return {
    topic: Topics.deadLetters.name,
    key: key || service,
    value: JSON.stringify(letter),
    headers: { 'x-dead-letter-service': service },
  };
}
