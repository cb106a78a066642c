import {
  changedOrder,
  isFinalOrderStatus,
  type LedgerJournalEvent,
  type LedgerOrderRecord,
  placedOrder,
} from '@exchange/contracts';

/**
 * The open spot orders of every user, as this replica has seen them since it started: the ledger's
 * trade and outcome events (v2) carry only the fields they moved, so the stream keeps the rest
 * from the placement to render an executionReport. Kept for every user, not only streamed
 * accounts, so a socket that connects after its order was placed still gets complete reports;
 * an order leaves when it ends, so this is bounded by the open orders. Orders placed before the
 * replica started are seeded from the ledger's tables when a stream of their account begins,
 * whatever events of their user this replica applied meanwhile: the fields an event moves are
 * absolute (executedQty, not the trade's quantity), so the next event sets them right, and an
 * order the replica saw end is not brought back (the ids of recent ends are kept, bounded). An
 * event of an order neither seen nor seeded gets no executionReport (its balances still stream).
 */
const ENDED_KEPT = 100_000;

export class SpotOrderMemory {
  private readonly open = new Map<string, LedgerOrderRecord>();
  /** The last sequence applied per user: a redelivered event changes nothing. */
  private readonly applied = new Map<string, number>();
  /** Orders seen to end, newest last: a seed read before the end does not bring them back. */
  private readonly ended = new Set<string>();

  /** The order the event changes, as it stands after the event; undefined for other events, redeliveries and unknown orders. */
  observe(event: LedgerJournalEvent): LedgerOrderRecord | undefined {
    if (
      event.type !== 'OrderPlaced' &&
      event.type !== 'OrderCancelRequested' &&
      event.type !== 'TradeSettled' &&
      event.type !== 'OrderOutcomeApplied'
    )
      return undefined;
    const { userId, seq } = event.payload;
    if (seq <= (this.applied.get(userId) ?? 0)) return undefined;
    this.applied.set(userId, seq);
    if (
      (event.type === 'TradeSettled' || event.type === 'OrderOutcomeApplied') &&
      isFinalOrderStatus(event.payload.order.status)
    )
      this.remember(event.payload.order.orderId);
    const order = this.orderAfter(event);
    if (!order) return undefined;
    if (isFinalOrderStatus(order.status)) this.open.delete(order.orderId);
    else this.open.set(order.orderId, order);
    return order;
  }

  /** Orders open as of the user's sequence `seq` (read from the ledger's tables when a stream begins): those not seen yet, nor seen to end. */
  seed(userId: string, seq: number, orders: readonly LedgerOrderRecord[]): void {
    if (seq > (this.applied.get(userId) ?? 0)) this.applied.set(userId, seq);
    for (const order of orders)
      if (!this.open.has(order.orderId) && !this.ended.has(order.orderId)) this.open.set(order.orderId, order);
  }

  get size(): number {
    return this.open.size;
  }

  private remember(orderId: string): void {
    this.ended.add(orderId);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.values().next().value!);
  }

  private orderAfter(
    event: Extract<
      LedgerJournalEvent,
      { type: 'OrderPlaced' | 'OrderCancelRequested' | 'TradeSettled' | 'OrderOutcomeApplied' }
    >,
  ): LedgerOrderRecord | undefined {
    switch (event.type) {
      case 'OrderPlaced':
        return placedOrder(event);
      case 'OrderCancelRequested':
        return event.payload.order;
      default: {
        const known = this.open.get(event.payload.order.orderId);
        return known && changedOrder(known, event);
      }
    }
  }
}
