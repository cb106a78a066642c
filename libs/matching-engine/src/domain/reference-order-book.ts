import { type DepthLevel, type OrderBook, type RestingOrder, ranksBefore, type Side } from './order-book';

interface ReferenceOrder {
  orderId: number;
  ownerId: number;
  side: Side;
  priceTicks: number;
  lots: number;
}

interface ReferenceLevel {
  priceTicks: number;
  /** Oldest first. */
  orders: ReferenceOrder[];
}

/**
 * The book written to be obviously correct rather than fast: per side an array of levels, best
 * first, each with an array of orders, oldest first; every lookup is a linear search. It is the
 * oracle the fast book is checked against, so nothing here may be clever.
 */
export class ReferenceOrderBook implements OrderBook {
  private readonly levels: Record<Side, ReferenceLevel[]> = { BUY: [], SELL: [] };

  get orderCount(): number {
    let count = 0;
    for (const side of ['BUY', 'SELL'] as const) {
      for (const level of this.levels[side]) count += level.orders.length;
    }
    return count;
  }

  add(orderId: number, ownerId: number, side: Side, priceTicks: number, lots: number): void {
    const levels = this.levels[side];
    let level = levels.find((l) => l.priceTicks === priceTicks);
    if (level === undefined) {
      level = { priceTicks, orders: [] };
      const before = levels.findIndex((l) => ranksBefore(side, priceTicks, l.priceTicks));
      levels.splice(before === -1 ? levels.length : before, 0, level);
    }
    level.orders.push({ orderId, ownerId, side, priceTicks, lots });
  }

  remove(orderId: number): RestingOrder | undefined {
    for (const side of ['BUY', 'SELL'] as const) {
      const levels = this.levels[side];
      for (let l = 0; l < levels.length; l++) {
        const level = levels[l]!;
        const index = level.orders.findIndex((o) => o.orderId === orderId);
        if (index === -1) continue;
        const [removed] = level.orders.splice(index, 1);
        if (level.orders.length === 0) levels.splice(l, 1);
        return removed;
      }
    }
    return undefined;
  }

  find(orderId: number): RestingOrder | undefined {
    for (const side of ['BUY', 'SELL'] as const) {
      for (const level of this.levels[side]) {
        const order = level.orders.find((o) => o.orderId === orderId);
        if (order !== undefined) return order;
      }
    }
    return undefined;
  }

  best(side: Side): RestingOrder | undefined {
    return this.levels[side][0]?.orders[0];
  }

  fillBest(side: Side, lots: number): void {
    const levels = this.levels[side];
    const level = levels[0];
    const order = level?.orders[0];
    if (level === undefined || order === undefined || lots <= 0 || lots > order.lots) {
      throw new RangeError(`fillBest(${side}, ${lots}): no best order with that many lots`);
    }
    order.lots -= lots;
    if (order.lots === 0) level.orders.shift();
    if (level.orders.length === 0) levels.shift();
  }

  levelLots(side: Side, priceTicks: number): number {
    const level = this.levels[side].find((l) => l.priceTicks === priceTicks);
    return level === undefined ? 0 : level.orders.reduce((sum, o) => sum + o.lots, 0);
  }

  depth(side: Side, limit: number): DepthLevel[] {
    return this.levels[side]
      .slice(0, Math.max(0, limit))
      .map((l): DepthLevel => [l.priceTicks, l.orders.reduce((sum, o) => sum + o.lots, 0)]);
  }

  scan(side: Side, visit: (order: RestingOrder) => boolean): void {
    for (const level of this.levels[side]) {
      for (const order of level.orders) {
        if (!visit(order)) return;
      }
    }
  }
}
