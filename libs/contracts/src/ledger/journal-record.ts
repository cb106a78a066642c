import type { LedgerJournalEvent } from './ledger-trading-events';

/**
 * A ledger.events record's value as its readers fold it: JSON naming a user and that user's
 * sequence, which is what they order and deduplicate by; anything else is undefined (skipped).
 * The ledger checked the command that caused it; this is not a schema check of the payload.
 */
export function parseJournalRecord(value: string): LedgerJournalEvent | undefined {
  try {
    const event = JSON.parse(value) as LedgerJournalEvent;
    return typeof event?.payload?.userId === 'string' && typeof event.payload.seq === 'number' ? event : undefined;
  } catch {
    return undefined;
  }
}
