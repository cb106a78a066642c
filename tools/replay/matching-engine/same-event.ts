import { orderEventSchema } from '@exchange/contracts';

/**
 * Whether an order.events record the live engine journaled equals the one the replay decided:
 * byte for byte, except for a record an older engine wrote in an earlier version, which must
 * equal the decided one once both are read through the consumers' path (upcast to the current
 * version). Same version but other bytes is a difference: the engine is not deterministic.
 */
export function sameEvent(journaled: string | undefined, decided: string): boolean {
  if (journaled === undefined) return false;
  if (journaled === decided) return true;
  const [old, now] = [JSON.parse(journaled) as { v?: unknown }, JSON.parse(decided) as { v?: unknown }];
  if (old.v === now.v) return false;
  const [a, b] = [orderEventSchema.safeParse(old), orderEventSchema.safeParse(now)];
  return a.success && b.success && JSON.stringify(a.data) === JSON.stringify(b.data);
}
