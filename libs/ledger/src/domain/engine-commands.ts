import type { CancelOrder, LedgerJournalEvent, OrderCancelRequested, OrderCommand, OrderPlaced, SubmitOrder } from '@exchange/contracts';

/**
 * The `order.commands` records a ledger decision causes, derived from its events alone so the
 * processor writes them to the outbox in the batch's transaction and a rebuild derives the same
 * ones. Their id is the event's id: the engine applies each id once, whatever the relay repeats.
 */
export function submitOrderFor(event: OrderPlaced): SubmitOrder {
  const o = event.payload.order;
  const size =
    o.type === 'MARKET' && o.side === 'BUY' ? { quoteAmount: o.origQuoteOrderQty } : o.type === 'MARKET' ? { quantity: o.origQty } : { price: o.price, quantity: o.origQty };
  return {
    type: 'SubmitOrder',
    v: 1,
    id: event.id,
    ts: event.ts,
    payload: {
      symbol: o.symbol,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      accountId: o.accountId,
      userId: o.userId,
      side: o.side,
      type: o.type,
      timeInForce: o.timeInForce,
      ...size,
      marketsVersion: o.marketsVersion,
    },
  };
}

export function cancelOrderFor(event: OrderCancelRequested): CancelOrder {
  const o = event.payload.order;
  return { type: 'CancelOrder', v: 1, id: event.id, ts: event.ts, payload: { symbol: o.symbol, orderId: o.orderId, accountId: o.accountId, userId: o.userId } };
}

/** Every order command a list of ledger events asks for, in journal order (key them by symbol). */
export function orderCommandsFor(events: readonly LedgerJournalEvent[]): OrderCommand[] {
  const commands: OrderCommand[] = [];
  for (const event of events) {
    if (event.type === 'OrderPlaced') commands.push(submitOrderFor(event));
    else if (event.type === 'OrderCancelRequested') commands.push(cancelOrderFor(event));
  }
  return commands;
}
