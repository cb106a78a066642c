import type { CancelOrder, PlaceOrder, SetSymbolStatus, SymbolStatus, TimeInForce } from '../engine-commands';
import type { CancelReason, DepthChanged, OrderAccepted, OrderCanceled, OrderFilled, OrderRejected, OrderRested, RejectReason, TradeExecuted } from '../engine-events';
import type { Side } from '../order-book';

/** Timestamps of the scenarios: everything given happens at GIVEN, the command under test at WHEN. */
export const GIVEN = 1_700_000_000_000;
export const WHEN = GIVEN + 1;

export function limit(orderId: number, ownerId: number, side: Side, priceTicks: number, qtyLots: number, timeInForce: TimeInForce = 'GTC', ts = GIVEN): PlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side, type: 'LIMIT', timeInForce, priceTicks, qtyLots, ts };
}

export function limitMaker(orderId: number, ownerId: number, side: Side, priceTicks: number, qtyLots: number, ts = GIVEN): PlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side, type: 'LIMIT_MAKER', timeInForce: 'GTC', priceTicks, qtyLots, ts };
}

export function marketBuy(orderId: number, ownerId: number, quoteBudget: number, ts = GIVEN): PlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side: 'BUY', type: 'MARKET', timeInForce: 'GTC', quoteBudget, ts };
}

export function marketSell(orderId: number, ownerId: number, qtyLots: number, ts = GIVEN): PlaceOrder {
  return { kind: 'PlaceOrder', orderId, ownerId, side: 'SELL', type: 'MARKET', timeInForce: 'GTC', qtyLots, ts };
}

export function cancel(orderId: number, ts = GIVEN): CancelOrder {
  return { kind: 'CancelOrder', orderId, ts };
}

export function setStatus(status: SymbolStatus, ts = GIVEN): SetSymbolStatus {
  return { kind: 'SetSymbolStatus', status, ts };
}

export function accepted(command: PlaceOrder): OrderAccepted {
  const { orderId, ownerId, side, type: orderType, timeInForce, ts } = command;
  return { type: 'OrderAccepted', orderId, ownerId, side, orderType, timeInForce, priceTicks: command.priceTicks ?? 0, qtyLots: command.qtyLots ?? 0, quoteBudget: command.quoteBudget ?? 0, ts };
}

/** A trade by the taker [orderId, ownerId, side] against the maker [orderId, ownerId], at WHEN. */
export function trade(
  tradeId: number,
  [takerOrderId, takerOwnerId, takerSide]: [number, number, Side],
  [makerOrderId, makerOwnerId]: [number, number],
  priceTicks: number,
  qtyLots: number,
  remaining: { maker: number; taker: number; quote?: number },
): TradeExecuted {
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

export function depthChanged(updateId: number, side: Side, priceTicks: number, totalLots: number): DepthChanged {
  return { type: 'DepthChanged', updateId, side, priceTicks, totalLots, ts: WHEN };
}

export function rested(orderId: number, ownerId: number, side: Side, priceTicks: number, restingLots: number): OrderRested {
  return { type: 'OrderRested', orderId, ownerId, side, priceTicks, restingLots, ts: WHEN };
}

export function filled(orderId: number, ownerId: number, side: Side, unspentQuote = 0): OrderFilled {
  return { type: 'OrderFilled', orderId, ownerId, side, unspentQuote, ts: WHEN };
}

export function canceled(orderId: number, ownerId: number, side: Side, remainingLots: number, reason: CancelReason, unspentQuote = 0): OrderCanceled {
  return { type: 'OrderCanceled', orderId, ownerId, side, remainingLots, unspentQuote, reason, ts: WHEN };
}

export function rejected(orderId: number, ownerId: number, reason: RejectReason): OrderRejected {
  return { type: 'OrderRejected', orderId, ownerId, reason, ts: WHEN };
}
