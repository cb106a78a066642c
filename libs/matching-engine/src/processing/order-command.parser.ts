import { type OrderCommand, orderCommandSchema } from '@exchange/contracts';
import type { IncomingRecord } from '@exchange/messaging';

export type ParsedCommand = { ok: true; command: OrderCommand } | { ok: false; problem: string; details?: unknown };

/**
 * A record of order.commands as a command, or why not. A command whose symbol belongs to
 * another partition is refused too: a book fed from two partitions could not be rebuilt from
 * one. Live processing and replay share this function, so they skip exactly the same records.
 */
export function parseOrderCommand(record: IncomingRecord, partitionOf: (symbol: string) => number): ParsedCommand {
  let json: unknown;
  try {
    json = JSON.parse(record.value);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = orderCommandSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problem: 'not an order command', details: parsed.error.issues.slice(0, 3) };
  const expected = partitionOf(parsed.data.payload.symbol);
  if (expected !== record.partition)
    return { ok: false, problem: `symbol ${parsed.data.payload.symbol} belongs to partition ${expected}` };
  return { ok: true, command: parsed.data };
}
