import type {
  CancelOrder,
  ContractOrderRecord,
  LedgerJournalEvent,
  OrderCancelRequested,
  OrderCommand,
  OrderPlaced,
  SubmitOrder,
} from '@exchange/contracts';

/**
 * The `order.commands` records a ledger decision causes, derived from its events alone so the
 * processor writes them to the outbox in the batch's transaction and a rebuild derives the same
 * ones. Their id is the event's id: the engine applies each id once, whatever the relay repeats.
 */
export function submitOrderFor(event: OrderPlaced): SubmitOrder {
  const o = event.payload.order;
  const size =
    o.type === 'MARKET' && o.side === 'BUY'
      ? { quoteAmount: o.origQuoteOrderQty }
      : o.type === 'MARKET'
        ? { quantity: o.origQty }
        : { price: o.price, quantity: o.origQty };
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
      userId: event.payload.userId,
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
  return {
    type: 'CancelOrder',
    v: 1,
    id: event.id,
    ts: event.ts,
    payload: { symbol: o.symbol, orderId: o.orderId, accountId: o.accountId, userId: o.userId },
  };
}

/**
 * A contract order on its book: BUY_* buy, SELL_* sell, at the price its margin was locked at;
 * LIMIT_MAKER (a time in force in the family's contract API) is the engine's order type. The
 * engine refuses no close order: what a close may claim was the ledger's check (-2022).
 */
export function submitContractOrderFor(event: { id: string; ts: number }, o: ContractOrderRecord): SubmitOrder {
  const tif = o.timeInForce ?? 'GTC';
  return {
    type: 'SubmitOrder',
    v: 1,
    id: event.id,
    ts: event.ts,
    payload: {
      symbol: o.symbol,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId ?? o.orderId,
      accountId: o.accountId,
      userId: o.userId,
      side: o.side.startsWith('BUY') ? 'BUY' : 'SELL',
      type: tif === 'LIMIT_MAKER' ? 'LIMIT_MAKER' : 'LIMIT',
      timeInForce: tif === 'LIMIT_MAKER' ? 'GTC' : tif,
      price: o.price,
      quantity: o.quantity,
      marketsVersion: o.marketsVersion,
    },
  };
}

/** Every order command a list of ledger events asks for, in journal order (key them by symbol). */
export function orderCommandsFor(events: readonly LedgerJournalEvent[]): OrderCommand[] {
  const commands: OrderCommand[] = [];
  for (const event of events) {
    if (event.type === 'OrderPlaced') commands.push(submitOrderFor(event));
    else if (event.type === 'OrderCancelRequested') commands.push(cancelOrderFor(event));
    // A STOP order waits off the book for its trigger; a LIMIT one goes to its book now.
    else if (event.type === 'ContractOrderPlaced' && event.payload.order.orderType === 'LIMIT')
      commands.push(submitContractOrderFor(event, event.payload.order));
    else if (event.type === 'ContractStopTriggered') commands.push(submitContractOrderFor(event, event.payload.order));
    else if (event.type === 'ContractCancelRequested') {
      const o = event.payload.order;
      commands.push({
        type: 'CancelOrder',
        v: 1,
        id: event.id,
        ts: event.ts,
        payload: { symbol: o.symbol, orderId: o.orderId, accountId: o.accountId, userId: o.userId },
      });
    }
    // A ContractOrderEnded asks nothing of the engine: a liquidation ends only STOP orders in the ledger
    // (never on the book), and its other ends (reason LIQUIDATION too) are the engine's own answers.
    // These records are written with the events they derive from, so no older journal passes here again.
  }
  return commands;
}
