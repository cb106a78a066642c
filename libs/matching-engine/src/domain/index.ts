export type { CancelOrder, EngineCommand, OrderType, PlaceOrder, SetSymbolStatus, SymbolStatus, TimeInForce } from './engine-commands';
export type {
  CancelReason,
  CancelRejected,
  DepthChanged,
  EngineEvent,
  OrderAccepted,
  OrderCanceled,
  OrderFilled,
  OrderRejected,
  OrderRested,
  RejectReason,
  SymbolStatusChanged,
  TradeExecuted,
} from './engine-events';
export { type EngineSnapshot, type SnapshotOrder } from './engine-snapshot';
export { FastOrderBook } from './fast-order-book';
export { type BookDepth, MatchingEngine, type MatchingEngineOptions } from './matching-engine';
export { type DepthLevel, type OrderBook, type RestingOrder, type Side } from './order-book';
export { ReferenceOrderBook } from './reference-order-book';
