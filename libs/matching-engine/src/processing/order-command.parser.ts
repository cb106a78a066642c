import { type OrderCommand, orderCommandSchema, parseOrderCommandValue } from '@exchange/contracts';
import { decodeRecord, type IncomingRecord } from '@exchange/messaging';

export type ParsedCommand = { ok: true; command: OrderCommand } | { ok: false; problem: string; details?: unknown };

/**
 * A record of order.commands as a command, or why not. A command whose symbol belongs to
 * another partition is refused too: a book fed from two partitions could not be rebuilt from
 * one. Live processing and replay share this function, so they skip exactly the same records.
 */
export function parseOrderCommand(record: IncomingRecord, partitionOf: (symbol: string) => number): ParsedCommand {
  const command = decodeRecord(record, parseOrderCommandValue);
  if (!command) return whyNotACommand(record.value);
  const expected = partitionOf(command.payload.symbol);
  if (expected !== record.partition)
    return { ok: false, problem: `symbol ${command.payload.symbol} belongs to partition ${expected}` };
  return { ok: true, command };
}

/** What is wrong with a value that is not an order command, for the log (a rare path: parsed again). */
function whyNotACommand(value: string): ParsedCommand & { ok: false } {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = orderCommandSchema.safeParse(json);
  return { ok: false, problem: 'not an order command', details: parsed.error?.issues.slice(0, 3) };
}
