export type {
  BookCancelOrder,
  EngineCommand,
  OrderType,
  BookPlaceOrder,
  BookSetSymbolStatus,
  SymbolStatus,
  TimeInForce,
} from './engine-commands';
export type {
  BookCancelReason,
  BookCancelRejected,
  BookDepthChanged,
  EngineEvent,
  BookOrderAccepted,
  BookOrderCanceled,
  BookOrderFilled,
  BookOrderRejected,
  BookOrderRested,
  BookRejectReason,
  BookSymbolStatusChanged,
  BookTradeExecuted,
} from './engine-events';
export { type EngineSnapshot, type SnapshotOrder } from './engine-snapshot';
export { FastOrderBook } from './fast-order-book';
export { type BookDepth, MatchingEngine, type MatchingEngineOptions } from './matching-engine';
export { type DepthLevel, type OrderBook, type RestingOrder, type Side } from './order-book';
export { ReferenceOrderBook } from './reference-order-book';
