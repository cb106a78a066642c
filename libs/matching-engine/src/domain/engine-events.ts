import type { OrderType, SymbolStatus, TimeInForce } from './engine-commands';
import type { Side } from './order-book';

/**
 * What the engine decided, in the order it decided it. Every accepted order produces, within the
 * same command, BookOrderAccepted first and then exactly one of BookOrderRested, BookOrderFilled or
 * BookOrderCanceled, with its trades in between; a rejected order produces only BookOrderRejected.
 * A resting order later ends either by a trade with makerRemainingLots 0 or by BookOrderCanceled.
 * (Book*: the engine's own events, converted to the contract messages of the same names without
 * the prefix by books/engine-event-translator.ts; their `type` strings are those names.)
 */
export type EngineEvent =
  | BookOrderAccepted
  | BookOrderRested
  | BookOrderFilled
  | BookOrderCanceled
  | BookOrderRejected
  | BookCancelRejected
  | BookTradeExecuted
  | BookDepthChanged
  | BookSymbolStatusChanged;

/** The order passed every check and is about to match; it carries the order's own terms. */
export interface BookOrderAccepted {
  type: 'OrderAccepted';
  orderId: number;
  ownerId: number;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  /** 0 for MARKET. */
  priceTicks: number;
  /** 0 for a MARKET BUY, which is sized by quoteBudget. */
  qtyLots: number;
  /** 0 unless MARKET BUY. */
  quoteBudget: number;
  ts: number;
}

/** The order's remainder, after any immediate trades, now rests on the book (status NEW or PARTIALLY_FILLED). */
export interface BookOrderRested {
  type: 'OrderRested';
  orderId: number;
  ownerId: number;
  side: Side;
  priceTicks: number;
  restingLots: number;
  ts: number;
}

/**
 * The incoming order traded everything it could by its own terms: all its lots, or, for a MARKET
 * BUY, its budget down to less than one lot at the best price (unspentQuote is released).
 */
export interface BookOrderFilled {
  type: 'OrderFilled';
  orderId: number;
  ownerId: number;
  side: Side;
  unspentQuote: number;
  ts: number;
}

export type BookCancelReason =
  'USER' | 'IOC_REMAINDER' | 'FOK_NOT_FILLABLE' | 'MARKET_NO_LIQUIDITY' | 'SELF_TRADE_PREVENTION';

export interface BookOrderCanceled {
  type: 'OrderCanceled';
  orderId: number;
  ownerId: number;
  side: Side;
  /** Lots that will never trade (0 for a MARKET BUY). */
  remainingLots: number;
  /** Quote a MARKET BUY did not spend (0 for every other order). */
  unspentQuote: number;
  reason: BookCancelReason;
  ts: number;
}

export type BookRejectReason = 'LIMIT_MAKER_WOULD_TAKE' | 'SYMBOL_NOT_TRADING' | 'DUPLICATE_ORDER_ID' | 'INVALID_ORDER';

export interface BookOrderRejected {
  type: 'OrderRejected';
  orderId: number;
  ownerId: number;
  reason: BookRejectReason;
  ts: number;
}

export interface BookCancelRejected {
  type: 'CancelRejected';
  orderId: number;
  reason: 'UNKNOWN_ORDER';
  ts: number;
}

export interface BookTradeExecuted {
  type: 'TradeExecuted';
  /** Per book, from 1, without gaps. */
  tradeId: number;
  takerOrderId: number;
  takerOwnerId: number;
  makerOrderId: number;
  makerOwnerId: number;
  takerSide: Side;
  /** The maker's price. */
  priceTicks: number;
  qtyLots: number;
  makerRemainingLots: number;
  /** 0 for a MARKET BUY, whose remainder is takerRemainingQuote. */
  takerRemainingLots: number;
  /** The MARKET BUY's remaining budget; 0 for every other taker. */
  takerRemainingQuote: number;
  ts: number;
}

/** One L2 level's new total (0: the level is gone). updateId increases by 1 per change, per book. */
export interface BookDepthChanged {
  type: 'DepthChanged';
  updateId: number;
  side: Side;
  priceTicks: number;
  totalLots: number;
  ts: number;
}

export interface BookSymbolStatusChanged {
  type: 'SymbolStatusChanged';
  status: SymbolStatus;
  ts: number;
}
