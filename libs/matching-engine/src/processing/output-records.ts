import { HeaderNames, Topics } from '@exchange/contracts';
import type { OutgoingRecord } from '@exchange/messaging';
import type { CommandOutput } from '../books/command-output';

/**
 * One command's messages as records: order.events keyed by symbol (one book, one ordered stream)
 * and settlement commands keyed by the userId of the account concerned (the ledger's partitioning).
 */
export function outputRecords(out: CommandOutput, correlationId: string | undefined): OutgoingRecord[] {
  // Only what the value does not already say: its type is in the envelope, and its causation (the
  // command) is the prefix of its id, `<commandId>:<n>`. The id stays, for logs of unparsable records.
  const headers = (id: string): Record<string, string> => ({
    [HeaderNames.messageId]: id,
    ...(correlationId === undefined ? {} : { [HeaderNames.correlationId]: correlationId }),
  });
  const records: OutgoingRecord[] = out.events.map((e) => ({
    topic: Topics.orderEvents.name,
    key: out.symbol,
    value: JSON.stringify(e),
    headers: headers(e.id),
    message: e,
  }));
  for (const s of out.settlements) {
    records.push({
      topic: Topics.ledgerCommands.name,
      key: s.payload.userId,
      value: JSON.stringify(s),
      headers: headers(s.id),
      message: s,
    });
  }
  return records;
}
