import { currentLedgerEvent } from './ledger-order-changes';
import type { LedgerJournalEvent, LedgerTradingEventV1 } from './ledger-trading-events';

/**
 * A ledger.events record's value as its readers fold it: JSON naming a user and that user's
 * sequence, which is what they order and deduplicate by; anything else is undefined (skipped).
 * The ledger checked the command that caused it; this is not a schema check of the payload. A
 * v1 spot order event is upcast to v2.
 */
export function parseJournalRecord(value: string): LedgerJournalEvent | undefined {
  try {
    const event = JSON.parse(value) as LedgerJournalEvent | LedgerTradingEventV1;
    return typeof event?.payload?.userId === 'string' && typeof event.payload.seq === 'number'
      ? currentLedgerEvent(event)
      : undefined;
  } catch {
    return undefined;
  }
}
