import { HeaderNames, type LedgerJournalEvent, type OrderCommand, type TrackWithdrawal, Topics } from '@exchange/contracts';
import type { OutgoingRecord } from '@exchange/messaging';
import { orderCommandsFor } from '../domain/order-commands-from-events';
import { walletCommandsFor } from '../domain/wallet-commands';

/**
 * The records one decided command leaves on the event log: its journal entries on ledger.events,
 * then the engine's and the wallet's commands they ask for. Each ledger.events record names the
 * ledger.commands offset its step committed through, so the projection can say which commands
 * its tables reflect.
 */
export function decisionRecords(events: readonly LedgerJournalEvent[], correlationId: string | undefined, inputNext: number): OutgoingRecord[] {
  const records = events.map((e) => journalRecord(e, correlationId, inputNext));
  for (const c of orderCommandsFor(events)) records.push(engineCommandRecord(c, correlationId));
  for (const c of walletCommandsFor(events)) records.push(walletCommandRecord(c, correlationId));
  return records;
}

function journalRecord(event: LedgerJournalEvent, correlationId: string | undefined, inputNext: number): OutgoingRecord {
  return {
    topic: Topics.ledgerEvents.name,
    key: event.payload.userId,
    value: JSON.stringify(event),
    headers: {
      [HeaderNames.messageId]: event.id,
      [HeaderNames.messageType]: event.type,
      [HeaderNames.causationId]: event.payload.commandId,
      [HeaderNames.ledgerInputNext]: String(inputNext),
      ...correlation(correlationId),
    },
  };
}

/** An engine command's id is the id of the event that asked for it (see order-commands-from-events.ts). */
function engineCommandRecord(command: OrderCommand, correlationId: string | undefined): OutgoingRecord {
  return {
    topic: Topics.orderCommands.name,
    key: command.payload.symbol,
    value: JSON.stringify(command),
    headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type, ...correlation(correlationId) },
  };
}

function walletCommandRecord(command: TrackWithdrawal, correlationId: string | undefined): OutgoingRecord {
  return {
    topic: Topics.walletCommands.name,
    key: command.payload.userId,
    value: JSON.stringify(command),
    headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type, ...correlation(correlationId) },
  };
}

function correlation(correlationId: string | undefined): Record<string, string> {
  return correlationId === undefined ? {} : { [HeaderNames.correlationId]: correlationId };
}

/**
 * Text PostgreSQL refuses (a NUL: SQLSTATE 22021 in text, 22P05 in jsonb) must not reach the
 * journal: the projection could never store the event, and every later event of its partition
 * would wait behind it. JSON.stringify writes a NUL as the escape checked here.
 */
export function unstorableText(values: readonly string[]): boolean {
  return values.some((v) => v.includes('\\u0000'));
}
