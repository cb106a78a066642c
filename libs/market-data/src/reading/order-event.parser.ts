import { type OrderEvent, parseOrderEventValue } from '@exchange/contracts';
import { decodeOnce, type IncomingRecord } from '@exchange/messaging';

/**
 * An order.events record as its contract, or undefined for a record that is not one (logged by the
 * caller). Decoded once per record and shared with the process's other readers of it: read-only.
 */
export function parseOrderEvent(record: IncomingRecord): OrderEvent | undefined {
  return decodeOnce(record, parseOrderEventValue);
}
