import Decimal from 'decimal.js';
import type { LedgerJournalEvent, LedgerOrderRecord, LedgerTradeRecord } from '@exchange/contracts';
import type { ExecutionReport, ExecutionType } from './stream-frames';

/** The codes of API-DECISIONS.md for the engine's reject reasons, as the REST answer gives them. */
export function rejectCodeOf(reason: string | undefined): number {
  switch (reason) {
    case 'SYMBOL_NOT_TRADING':
      return -1151;
    case 'UNKNOWN_SYMBOL':
      return -1121;
    default:
      return -2010;
  }
}

/** Every lot of a quantity order traded: its last trade is its fill (a MARKET BUY by quote amount learns it from the FILLED outcome). */
export function isCompletelyFilled(order: LedgerOrderRecord): boolean {
  const orig = new Decimal(order.origQty || '0');
  return orig.greaterThan(0) && new Decimal(order.executedQty || '0').greaterThanOrEqualTo(orig);
}

interface Transition {
  x: ExecutionType;
  X: string;
  trade?: LedgerTradeRecord;
  r?: number;
  canceled?: boolean;
}

/**
 * The order transition a ledger event is (with the order as it stands after it), if it is one: NEW when the ledger accepts the order,
 * PARTIALLY_FILLED or FILLED with each trade, CANCELED and REJECTED when the engine ends it.
 * RESTED (the order reached the book) and cancel requests change no status a client tracks; a
 * FILLED outcome was already reported with the order's last trade unless the order was a MARKET
 * BUY by quote amount, whose fill only the outcome can tell.
 */
export function transitionOf(event: LedgerJournalEvent, order: LedgerOrderRecord): Transition | undefined {
  switch (event.type) {
    case 'OrderPlaced':
      return { x: 'NEW', X: 'NEW' };
    case 'TradeSettled': {
      const filled = isCompletelyFilled(order);
      return {
        x: filled ? 'FILLED' : 'PARTIALLY_FILLED',
        X: filled ? 'FILLED' : order.status,
        trade: event.payload.trade,
      };
    }
    case 'OrderOutcomeApplied':
      switch (event.payload.outcome) {
        case 'FILLED':
          return isCompletelyFilled(order) ? undefined : { x: 'FILLED', X: 'FILLED' };
        case 'CANCELED':
          return { x: 'CANCELED', X: 'CANCELED', canceled: true };
        case 'REJECTED':
          return { x: 'REJECTED', X: 'REJECTED', r: rejectCodeOf(event.payload.reason) };
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}

/** The report of a transition, every key of spec 6.2 plus x, t, T, r and C; Z / z is the average price. */
export function executionReport(order: LedgerOrderRecord, transition: Transition, E: number): ExecutionReport {
  const trade = transition.trade;
  return {
    e: 'executionReport',
    E,
    s: order.symbol,
    c: order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce,
    q: order.origQty || '0',
    p: order.price || '0',
    X: transition.X,
    i: order.orderId,
    l: trade?.qty ?? '0',
    z: order.executedQty || '0',
    L: trade?.price ?? '0',
    n: trade?.commission ?? '0',
    N: trade?.commissionAsset ?? null,
    u: true,
    w: order.isWorking,
    m: trade?.isMaker ?? false,
    O: order.time,
    Z: order.cummulativeQuoteQty || '0',
    x: transition.x,
    t: trade?.tradeId ?? '-1',
    T: trade?.time ?? order.updateTime,
    r: transition.r ?? 0,
    C: transition.canceled ? order.clientOrderId : '',
  };
}
