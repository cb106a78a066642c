import { createHash } from 'node:crypto';
import type { SymbolStatus } from './engine-commands';
import type { OrderBook, Side } from './order-book';

/** A resting order in a snapshot: [orderId, ownerId, priceTicks, lots]. */
export type SnapshotOrder = [orderId: number, ownerId: number, priceTicks: number, lots: number];

/**
 * Everything the engine's future depends on, as plain JSON: restoring it gives an engine whose
 * further events are identical to those of one that never stopped. Orders are listed in priority
 * order (best price first, oldest first within a price), which is all a book needs to rebuild
 * its queues.
 */
export interface EngineSnapshot {
  version: 1;
  status: SymbolStatus;
  lastTradeId: number;
  lastUpdateId: number;
  bids: SnapshotOrder[];
  asks: SnapshotOrder[];
}

export function sideOrders(book: OrderBook, side: Side): SnapshotOrder[] {
  const orders: SnapshotOrder[] = [];
  book.scan(side, (o) => {
    orders.push([o.orderId, o.ownerId, o.priceTicks, o.lots]);
    return true;
  });
  return orders;
}

/** Re-adds the orders of one side of a snapshot; appending them in priority order restores time priority. */
export function loadSideOrders(book: OrderBook, side: Side, orders: readonly SnapshotOrder[]): void {
  for (const order of orders) {
    if (order.length !== 4 || !order.every((n) => Number.isSafeInteger(n) && n > 0)) {
      throw new Error(`engine snapshot: malformed ${side} order ${JSON.stringify(order)}`);
    }
    if (book.find(order[0]) !== undefined) throw new Error(`engine snapshot: order ${order[0]} appears twice`);
    book.add(order[0], order[1], side, order[2], order[3]);
  }
}

/**
 * sha256 over a canonical rendering of the snapshot: the snapshot is built field by field in a
 * fixed order and lists orders in priority order, so JSON text is canonical and two engines that
 * applied the same commands agree on it byte for byte.
 */
export function snapshotHash(snapshot: EngineSnapshot): string {
  const canonical = [
    snapshot.version,
    snapshot.status,
    snapshot.lastTradeId,
    snapshot.lastUpdateId,
    snapshot.bids,
    snapshot.asks,
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
