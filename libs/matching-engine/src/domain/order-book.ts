/**
 * One symbol's resting orders, in integer ticks and lots. Two implementations sit behind this
 * interface (a plain reference one and a fast one); the matcher runs on either and the contract
 * suite holds both to the same answers, so the fast one can be as clever as it needs to be.
 *
 * The book stores and orders; it does not decide. It never checks that an added order would
 * cross or that its id is new: the matcher has already matched it and looked it up.
 */
export type Side = 'BUY' | 'SELL';

export interface RestingOrder {
  readonly orderId: number;
  readonly ownerId: number;
  readonly side: Side;
  readonly priceTicks: number;
  /** What is left to trade. */
  readonly lots: number;
}

/** A price level of the L2 view: [priceTicks, totalLots]. */
export type DepthLevel = [priceTicks: number, totalLots: number];

export interface OrderBook {
  /** How many orders rest on both sides. */
  readonly orderCount: number;

  /** Appends an order at the back of its price level's queue (its time priority is "now"). */
  add(orderId: number, ownerId: number, side: Side, priceTicks: number, lots: number): void;

  /** Takes an order off the book; undefined when it is not resting. */
  remove(orderId: number): RestingOrder | undefined;

  /**
   * The resting order, or undefined. The object returned may be reused by the book after the
   * next change, so callers copy what they need before changing the book.
   */
  find(orderId: number): RestingOrder | undefined;

  /** The first order in priority of `side` (best price, oldest); same reuse caveat as find. */
  best(side: Side): RestingOrder | undefined;

  /** Trades `lots` off the best order of `side`, removing it (and an emptied level) at zero. */
  fillBest(side: Side, lots: number): void;

  /** Total lots resting at one price on one side; 0 when the level does not exist. */
  levelLots(side: Side, priceTicks: number): number;

  /** Up to `limit` levels of `side`, best first. */
  depth(side: Side, limit: number): DepthLevel[];

  /** Visits the orders of `side` in priority order until `visit` returns false. */
  scan(side: Side, visit: (order: RestingOrder) => boolean): void;
}

/** A plain copy of the public fields of a resting order (books hand out live internal objects). */
export function copyOrder(order: RestingOrder): RestingOrder {
  return {
    orderId: order.orderId,
    ownerId: order.ownerId,
    side: order.side,
    priceTicks: order.priceTicks,
    lots: order.lots,
  };
}

export function oppositeSide(side: Side): Side {
  return side === 'BUY' ? 'SELL' : 'BUY';
}

/** True when, on `side`, a level at price `a` comes before one at price `b` (bids high first, asks low first). */
export function ranksBefore(side: Side, a: number, b: number): boolean {
  return side === 'BUY' ? a > b : a < b;
}
