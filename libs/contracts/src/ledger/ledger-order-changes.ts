import type {
  LedgerJournalEvent,
  LedgerOrderRecord,
  LedgerOrderStatus,
  LedgerTradingEventV1,
  OrderOutcomeApplied,
  OrderPlaced,
  TradeSettled,
} from './ledger-trading-events';

/**
 * How a reader of ledger.events gets an order's whole record from the v2 events, which say only
 * what changed: the placement gives the record, each later event the fields it moved.
 */
const FINAL_STATUSES: ReadonlySet<LedgerOrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED']);

export function isFinalOrderStatus(status: LedgerOrderStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** The record an OrderPlaced starts: its terms, nothing executed, the whole reservation left. */
export function placedOrder(event: OrderPlaced): LedgerOrderRecord {
  const terms = event.payload.order;
  // Copied, then written: the same record as a spread of the terms into a literal, which V8 builds on
  // its slow path once it has met orders of several shapes (tens of µs a record; issue 16).
  const record = Object.assign({}, terms) as LedgerOrderRecord;
  record.userId = event.payload.userId;
  record.executedQty = '0';
  record.cummulativeQuoteQty = '0';
  record.status = 'NEW';
  record.isWorking = false;
  record.time = event.ts;
  record.updateTime = event.ts;
  record.reservationLeft = terms.reservedAmount;
  return record;
}

/** The record after a trade leg or an outcome of it. */
export function changedOrder(order: LedgerOrderRecord, event: TradeSettled | OrderOutcomeApplied): LedgerOrderRecord {
  // One copy, written in place: the same keys in the same order as spreading the two into literals, which
  // takes V8's slow path (about four times the cost, measured; issue 16).
  const changed: LedgerOrderRecord = Object.assign({}, order, event.payload.order);
  changed.updateTime = event.ts;
  if (isFinalOrderStatus(changed.status)) {
    changed.finalTime = event.ts;
    changed.reservationLeft = '0';
  }
  return changed;
}

/** The fields of the orders row an event moved, for an order whose record is elsewhere (the projection's row). */
export function orderChangeFields(
  event: TradeSettled | OrderOutcomeApplied,
): Partial<LedgerOrderRecord> & { orderId: string; status: LedgerOrderStatus; updateTime: number } {
  // Copied by Object.assign, not a spread: V8 adds properties to a spread's copy on its slow path.
  const fields: ReturnType<typeof orderChangeFields> = Object.assign({}, event.payload.order, { updateTime: event.ts });
  if (isFinalOrderStatus(fields.status)) Object.assign(fields, { finalTime: event.ts, reservationLeft: '0' });
  return fields;
}

/** A v1 spot order event in the v2 shape: the record's unchanged fields are left behind (the readers hold them), nothing is guessed. */
export function upcastLedgerEventV1(event: LedgerTradingEventV1): LedgerJournalEvent {
  const envelope = { id: event.id, ts: event.ts };
  switch (event.type) {
    case 'OrderPlaced': {
      const { userId, seq, commandId, order, balances } = event.payload;
      const {
        orderId,
        clientOrderId,
        accountId,
        symbol,
        side,
        type,
        timeInForce,
        price,
        origQty,
        origQuoteOrderQty,
        reservedAsset,
        reservedAmount,
        marketsVersion,
      } = order;
      const terms = {
        orderId,
        clientOrderId,
        accountId,
        symbol,
        side,
        type,
        timeInForce,
        price,
        origQty,
        origQuoteOrderQty,
        reservedAsset,
        reservedAmount,
        marketsVersion,
      };
      return { type: 'OrderPlaced', v: 2, ...envelope, payload: { order: terms, balances, userId, seq, commandId } };
    }
    case 'OrderOutcomeApplied': {
      const { order, ...rest } = event.payload;
      return {
        type: 'OrderOutcomeApplied',
        v: 2,
        ...envelope,
        payload: { ...rest, order: { orderId: order.orderId, status: order.status, isWorking: order.isWorking } },
      };
    }
    case 'TradeSettled': {
      const { order, flows, ...rest } = event.payload;
      const fill = {
        orderId: order.orderId,
        status: order.status,
        executedQty: order.executedQty,
        cummulativeQuoteQty: order.cummulativeQuoteQty,
        reservationLeft: order.reservationLeft,
      };
      return {
        type: 'TradeSettled',
        v: 2,
        ...envelope,
        payload: { ...rest, order: fill, firstFlowId: flows[0]?.flowId ?? '0', flows },
      };
    }
    default: {
      const unknown: never = event;
      throw new Error(`ledger events: no upcast for ${JSON.stringify(unknown)}`);
    }
  }
}

/** A parsed ledger event as its readers take it: a v1 spot order event upcast, any other as it is. */
export function currentLedgerEvent(event: LedgerJournalEvent | LedgerTradingEventV1): LedgerJournalEvent {
  return event.v === 1 &&
    (event.type === 'OrderPlaced' || event.type === 'OrderOutcomeApplied' || event.type === 'TradeSettled')
    ? upcastLedgerEventV1(event as LedgerTradingEventV1)
    : (event as LedgerJournalEvent);
}
