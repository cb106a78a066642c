import type { Side } from './order-book';

export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type SymbolStatus = 'TRADING' | 'HALT' | 'BREAK';

/**
 * Places an order. Prices are in ticks (price / tickSize), quantities in lots (quantity /
 * stepSize), quote amounts in notional units (tickSize × stepSize: q lots at p ticks cost p × q),
 * all safe integers, converted exactly at the engine's boundary.
 *
 * - LIMIT: priceTicks and qtyLots; timeInForce GTC, IOC or FOK.
 * - LIMIT_MAKER: priceTicks and qtyLots; rests as GTC or is rejected if it would take.
 * - MARKET SELL: qtyLots. MARKET BUY: quoteBudget (the quote to spend). MARKET never rests, and
 *   its timeInForce is not consulted.
 */
export interface BookPlaceOrder {
  kind: 'PlaceOrder';
  /** Positive safe integer assigned by the gateway; unique among resting orders. */
  orderId: number;
  /** The account, for self-trade prevention. */
  ownerId: number;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  priceTicks?: number;
  qtyLots?: number;
  quoteBudget?: number;
  ts: number;
}

export interface BookCancelOrder {
  kind: 'CancelOrder';
  orderId: number;
  ts: number;
}

export interface BookSetSymbolStatus {
  kind: 'SetSymbolStatus';
  status: SymbolStatus;
  ts: number;
}

export type EngineCommand = BookPlaceOrder | BookCancelOrder | BookSetSymbolStatus;
