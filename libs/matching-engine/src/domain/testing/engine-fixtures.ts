import type {
  BookCancelOrder,
  BookPlaceOrder,
  BookSetSymbolStatus,
  SymbolStatus,
  TimeInForce,
} from '../engine-commands';
import type {
  BookCancelReason,
  BookDepthChanged,
  BookOrderAccepted,
  BookOrderCanceled,
  BookOrderFilled,
  BookOrderRejected,
  BookOrderRested,
  BookRejectReason,
  BookTradeExecuted,
} from '../engine-events';
import type { Side } from '../order-book';

/** Timestamps of the scenarios: everything given happens at GIVEN, the command under test at WHEN. */
export const GIVEN = 1_700_000_000_000;
export const WHEN = GIVEN + 1;

export function limit(
  orderId: number,
  ownerId: number,
  side: Side,
  priceTicks: number,
  qtyLots: number,
  timeInForce: TimeInForce = 'GTC',
  ts = GIVEN,
): BookPlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side, type: 'LIMIT', timeInForce, priceTicks, qtyLots, ts };
}

export function limitMaker(
  orderId: number,
  ownerId: number,
  side: Side,
  priceTicks: number,
  qtyLots: number,
  ts = GIVEN,
): BookPlaceOrder {
  return {
    kind: 'PlaceOrder',
    orderId,
    ownerId,
    side,
    type: 'LIMIT_MAKER',
    timeInForce: 'GTC',
    priceTicks,
    qtyLots,
    ts,
  };
}

export function marketBuy(orderId: number, ownerId: number, quoteBudget: number, ts = GIVEN): BookPlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side: 'BUY', type: 'MARKET', timeInForce: 'GTC', quoteBudget, ts };
}

export function marketSell(orderId: number, ownerId: number, qtyLots: number, ts = GIVEN): BookPlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side: 'SELL', type: 'MARKET', timeInForce: 'GTC', qtyLots, ts };
}

export function cancel(orderId: number, ts = GIVEN): BookCancelOrder {
  return { kind: 'CancelOrder', orderId, ts };
}

export function setStatus(status: SymbolStatus, ts = GIVEN): BookSetSymbolStatus {
  return { kind: 'SetSymbolStatus', status, ts };
}

export function accepted(command: BookPlaceOrder): BookOrderAccepted {
  const { orderId, ownerId, side, type: orderType, timeInForce, ts } = command;
  return {
    type: 'OrderAccepted',
    orderId,
    ownerId,
    side,
    orderType,
    timeInForce,
    priceTicks: command.priceTicks ?? 0,
    qtyLots: command.qtyLots ?? 0,
    quoteBudget: command.quoteBudget ?? 0,
    ts,
  };
}

/** A trade by the taker [orderId, ownerId, side] against the maker [orderId, ownerId], at WHEN. */
export function trade(
  tradeId: number,
  [takerOrderId, takerOwnerId, takerSide]: [number, number, Side],
  [makerOrderId, makerOwnerId]: [number, number],
  priceTicks: number,
  qtyLots: number,
  remaining: { maker: number; taker: number; quote?: number },
): BookTradeExecuted {
  return {
    type: 'TradeExecuted',
    tradeId,
    takerOrderId,
    takerOwnerId,
    makerOrderId,
    makerOwnerId,
    takerSide,
    priceTicks,
    qtyLots,
    makerRemainingLots: remaining.maker,
    takerRemainingLots: remaining.taker,
    takerRemainingQuote: remaining.quote ?? 0,
    ts: WHEN,
  };
}

export function depthChanged(updateId: number, side: Side, priceTicks: number, totalLots: number): BookDepthChanged {
  return { type: 'DepthChanged', updateId, side, priceTicks, totalLots, ts: WHEN };
}

export function rested(
  orderId: number,
  ownerId: number,
  side: Side,
  priceTicks: number,
  restingLots: number,
): BookOrderRested {
  return { type: 'OrderRested', orderId, ownerId, side, priceTicks, restingLots, ts: WHEN };
}

export function filled(orderId: number, ownerId: number, side: Side, unspentQuote = 0): BookOrderFilled {
  return { type: 'OrderFilled', orderId, ownerId, side, unspentQuote, ts: WHEN };
}

export function canceled(
  orderId: number,
  ownerId: number,
  side: Side,
  remainingLots: number,
  reason: BookCancelReason,
  unspentQuote = 0,
): BookOrderCanceled {
  return { type: 'OrderCanceled', orderId, ownerId, side, remainingLots, unspentQuote, reason, ts: WHEN };
}

export function rejected(orderId: number, ownerId: number, reason: BookRejectReason): BookOrderRejected {
  return { type: 'OrderRejected', orderId, ownerId, reason, ts: WHEN };
}
