import { type OrderEvent, orderEventSchema } from '@exchange/contracts';
import type { IncomingRecord } from '@exchange/messaging';

/** An order.events record as its contract, or undefined for a record that is not one (logged by the caller). */
export function parseOrderEvent(record: IncomingRecord): OrderEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(record.value);
  } catch {
    return undefined;
  }
  const parsed = orderEventSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
