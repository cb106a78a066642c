import { changedOrder, isFinalOrderStatus, type LedgerJournalEvent, type LedgerOrderRecord, placedOrder } from '@exchange/contracts';

/**
 * The open spot orders of every user, as this replica has seen them since it started: the ledger's
 * trade and outcome events (v2) carry only the fields they moved, so the stream keeps the rest
 * from the placement to render an executionReport. Kept for every user, not only streamed
 * accounts, so a socket that connects after its order was placed still gets complete reports;
 * an order leaves when it ends, so this is bounded by the open orders. Orders placed before the
 * replica started are seeded from the ledger's tables when a stream of their account begins; one
 * neither seen nor seeded (a race with that read) gets no executionReport (its balances still
 * stream). The same scheme as ContractOrderMemory.
 */
export class SpotOrderMemory {
  private readonly open = new Map<string, LedgerOrderRecord>();
  /** The last sequence applied per user: a redelivered event changes nothing. */
  private readonly applied = new Map<string, number>();

  /** The order the event changes, as it stands after the event; undefined for other events, redeliveries and unknown orders. */
  observe(event: LedgerJournalEvent): LedgerOrderRecord | undefined {
    if (event.type !== 'OrderPlaced' && event.type !== 'OrderCancelRequested' && event.type !== 'TradeSettled' && event.type !== 'OrderOutcomeApplied') return undefined;
    const { userId, seq } = event.payload;
    if (seq <= (this.applied.get(userId) ?? 0)) return undefined;
    this.applied.set(userId, seq);
    const order = this.orderAfter(event);
    if (!order) return undefined;
    if (isFinalOrderStatus(order.status)) this.open.delete(order.orderId);
    else this.open.set(order.orderId, order);
    return order;
  }

  /**
   * Orders open as of the user's sequence `seq` (read from the ledger's tables when a stream
   * begins). Skipped when events after `seq` were applied already: which of these orders they
   * ended cannot be told.
   */
  seed(userId: string, seq: number, orders: readonly LedgerOrderRecord[]): void {
    if ((this.applied.get(userId) ?? 0) > seq) return;
    this.applied.set(userId, seq);
    for (const order of orders) if (!this.open.has(order.orderId)) this.open.set(order.orderId, order);
  }

  get size(): number {
    return this.open.size;
  }

  private orderAfter(event: Extract<LedgerJournalEvent, { type: 'OrderPlaced' | 'OrderCancelRequested' | 'TradeSettled' | 'OrderOutcomeApplied' }>): LedgerOrderRecord | undefined {
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
