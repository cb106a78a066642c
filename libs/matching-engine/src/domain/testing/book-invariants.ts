import { copyOrder, type DepthLevel, type OrderBook, type RestingOrder, type Side } from '../order-book';

/**
 * Everything that must hold of any book at any moment, checked through the public interface only:
 * priority order, level totals equal to the sum of their orders, no empty levels, the order index
 * agreeing with the queues, and a book that is never crossed. Returns the violations (none: []).
 */
export function bookViolations(book: OrderBook): string[] {
  const violations: string[] = [];
  const seen = new Set<number>();
  for (const side of ['BUY', 'SELL'] as const) {
    const orders = scanAll(book, side);
    violations.push(...priorityViolations(side, orders));
    violations.push(...levelViolations(book, side, orders));
    for (const order of orders) {
      if (seen.has(order.orderId)) violations.push(`order ${order.orderId} rests twice`);
      seen.add(order.orderId);
      const found = book.find(order.orderId);
      if (found === undefined || JSON.stringify(copyOrder(found)) !== JSON.stringify(order)) {
        violations.push(
          `index disagrees for ${order.orderId}: ${JSON.stringify(found && copyOrder(found))} vs ${JSON.stringify(order)}`,
        );
      }
    }
    const best = book.best(side);
    if (JSON.stringify(best === undefined ? null : copyOrder(best)) !== JSON.stringify(orders[0] ?? null))
      violations.push(`${side} best is not the first in priority`);
  }
  if (book.orderCount !== seen.size) violations.push(`orderCount ${book.orderCount} but ${seen.size} orders rest`);
  const bid = book.best('BUY');
  const ask = book.best('SELL');
  if (bid !== undefined && ask !== undefined && bid.priceTicks >= ask.priceTicks)
    violations.push(`crossed: bid ${bid.priceTicks} >= ask ${ask.priceTicks}`);
  return violations;
}

/** The L2 view of the whole book, best first, as [priceTicks, totalLots] per side. */
export function fullDepth(book: OrderBook): { bids: DepthLevel[]; asks: DepthLevel[] } {
  return { bids: book.depth('BUY', Number.MAX_SAFE_INTEGER), asks: book.depth('SELL', Number.MAX_SAFE_INTEGER) };
}

function scanAll(book: OrderBook, side: Side): RestingOrder[] {
  const orders: RestingOrder[] = [];
  book.scan(side, (o) => {
    orders.push(copyOrder(o));
    return true;
  });
  return orders;
}

function priorityViolations(side: Side, orders: readonly RestingOrder[]): string[] {
  const violations: string[] = [];
  orders.forEach((order, i) => {
    if (order.side !== side) violations.push(`order ${order.orderId} of ${order.side} rests on ${side}`);
    if (!Number.isSafeInteger(order.lots) || order.lots <= 0)
      violations.push(`order ${order.orderId} rests with ${order.lots} lots`);
    const previous = orders[i - 1];
    if (
      previous !== undefined &&
      (side === 'BUY' ? order.priceTicks > previous.priceTicks : order.priceTicks < previous.priceTicks)
    ) {
      violations.push(
        `${side} order ${order.orderId} at ${order.priceTicks} after ${previous.priceTicks}: out of price priority`,
      );
    }
  });
  return violations;
}

function levelViolations(book: OrderBook, side: Side, orders: readonly RestingOrder[]): string[] {
  const expected: DepthLevel[] = [];
  for (const order of orders) {
    const last = expected[expected.length - 1];
    if (last !== undefined && last[0] === order.priceTicks) last[1] += order.lots;
    else expected.push([order.priceTicks, order.lots]);
  }
  const violations: string[] = [];
  const depth = book.depth(side, Number.MAX_SAFE_INTEGER);
  if (JSON.stringify(depth) !== JSON.stringify(expected))
    violations.push(`${side} depth ${JSON.stringify(depth)} is not the sum of its orders ${JSON.stringify(expected)}`);
  for (const [priceTicks, lots] of expected) {
    if (book.levelLots(side, priceTicks) !== lots)
      violations.push(`${side} levelLots(${priceTicks}) = ${book.levelLots(side, priceTicks)}, orders sum to ${lots}`);
  }
  if (depth.some(([, lots]) => lots <= 0)) violations.push(`${side} has an empty level`);
  return violations;
}
