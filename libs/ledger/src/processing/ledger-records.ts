import {
  HeaderNames,
  type LedgerJournalEvent,
  type RecordTrace,
  Topics,
  toPartitionRecord,
  toRecord,
} from '@exchange/contracts';
import type { OutgoingRecord } from '@exchange/messaging';
import { adlCommandsFor } from '../domain/contracts/adl-commands';
import { continuationsFor } from '../domain/contracts/continuations';
import { orderCommandsFor } from '../domain/order-commands-from-events';
import { walletCommandsFor } from '../domain/wallet-commands';

/**
 * The records one decided command leaves on the event log: its journal entries on ledger.events,
 * then the engine's and the wallet's commands they ask for, the commands an auto-deleveraging
 * step sends other ledger partitions (by number, keyed by the ADL's id), and the continuations of
 * a settlement past one command's budget, to the deciding `partition` itself. Each ledger.events record names the
 * ledger.commands offset its step committed through, so the projection can say which commands
 * its tables reflect.
 */
export function decisionRecords(
  events: readonly LedgerJournalEvent[],
  correlationId: string | undefined,
  inputNext: number,
  partition: number,
): OutgoingRecord[] {
  const trace = { correlation: correlationId };
  const records = events.map((e) => journalRecord(e, trace, inputNext));
  // An engine command's id is the id of the event that asked for it (see order-commands-from-events.ts).
  for (const c of orderCommandsFor(events)) records.push(toRecord(Topics.orderCommands, c, trace));
  for (const c of walletCommandsFor(events)) records.push(toRecord(Topics.walletCommands, c, trace));
  for (const { partition, command } of adlCommandsFor(events))
    records.push(toPartitionRecord(Topics.ledgerCommands, command, partition, command.payload.adlId, trace));
  for (const c of continuationsFor(events))
    records.push(toPartitionRecord(Topics.ledgerCommands, c, partition, c.payload.symbol, trace));
  return records;
}

function journalRecord(event: LedgerJournalEvent, trace: RecordTrace, inputNext: number): OutgoingRecord {
  const record = toRecord(Topics.ledgerEvents, event, {
    correlation: trace.correlation,
    causation: event.payload.commandId,
  });
  // The record and its headers are toRecord's own: written in place, not copied by spreads (V8
  // adds properties to a spread's copy on its slow path, ~2 µs each).
  record.headers[HeaderNames.ledgerInputNext] = String(inputNext);
  return record;
}

/**
 * Text PostgreSQL refuses (a NUL: SQLSTATE 22021 in text, 22P05 in jsonb) must not reach the
 * journal: the projection could never store the event, and every later event of its partition
 * would wait behind it. JSON.stringify writes a NUL as the escape checked here.
 */
export function unstorableText(values: readonly string[]): boolean {
  return values.some((v) => v.includes('\\u0000'));
}
