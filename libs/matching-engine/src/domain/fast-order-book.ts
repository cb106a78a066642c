import type { DepthLevel, OrderBook, RestingOrder, Side } from './order-book';
import { OrderNode, PriceLadder, type PriceLevel } from './price-ladder';

/** Enough spare nodes to absorb the churn of a busy book without keeping a crash's worth around. */
const MAX_SPARE_NODES = 65_536;

/**
 * The book the engine runs on, in the spirit of exchange-core's direct book: levels in a ranked
 * array with the best one last plus a Map by price, orders as nodes of intrusive doubly-linked
 * queues, and a Map from order id to node so a cancel is O(1). Nodes are recycled, so steady-state
 * trading allocates no book structure at all.
 */
export class FastOrderBook implements OrderBook {
  private readonly bids = new PriceLadder('BUY');
  private readonly asks = new PriceLadder('SELL');
  private readonly orders = new Map<number, OrderNode>();
  private readonly spare: OrderNode[] = [];

  get orderCount(): number {
    return this.orders.size;
  }

  add(orderId: number, ownerId: number, side: Side, priceTicks: number, lots: number): void {
    const node = this.spare.pop() ?? new OrderNode();
    node.orderId = orderId;
    node.ownerId = ownerId;
    node.side = side;
    node.priceTicks = priceTicks;
    node.lots = lots;
    this.ladder(side).obtain(priceTicks).append(node);
    this.orders.set(orderId, node);
  }

  remove(orderId: number): RestingOrder | undefined {
    const node = this.orders.get(orderId);
    if (node === undefined) return undefined;
    this.detach(node);
    return node;
  }

  find(orderId: number): RestingOrder | undefined {
    return this.orders.get(orderId);
  }

  best(side: Side): RestingOrder | undefined {
    return this.ladder(side).best?.head ?? undefined;
  }

  fillBest(side: Side, lots: number): void {
    const node = this.ladder(side).best?.head;
    if (node === undefined || node === null || lots <= 0 || lots > node.lots) {
      throw new RangeError(`fillBest(${side}, ${lots}): no best order with that many lots`);
    }
    if (lots === node.lots) {
      this.detach(node);
      return;
    }
    node.lots -= lots;
    node.level!.totalLots -= lots;
  }

  levelLots(side: Side, priceTicks: number): number {
    return this.ladder(side).at(priceTicks)?.totalLots ?? 0;
  }

  depth(side: Side, limit: number): DepthLevel[] {
    const levels = this.ladder(side).levels;
    const result: DepthLevel[] = [];
    for (let i = levels.length - 1; i >= 0 && result.length < limit; i--) {
      const level = levels[i]!;
      result.push([level.priceTicks, level.totalLots]);
    }
    return result;
  }

  scan(side: Side, visit: (order: RestingOrder) => boolean): void {
    const levels = this.ladder(side).levels;
    for (let i = levels.length - 1; i >= 0; i--) {
      for (let node = levels[i]!.head; node !== null; node = node.next) {
        if (!visit(node)) return;
      }
    }
  }

  private ladder(side: Side): PriceLadder {
    return side === 'BUY' ? this.bids : this.asks;
  }

  /** Unlinks a node, drops its level if that emptied it, and keeps the node for reuse. */
  private detach(node: OrderNode): void {
    const level: PriceLevel = node.level!;
    level.unlink(node);
    if (level.head === null) this.ladder(node.side).drop(level);
    this.orders.delete(node.orderId);
    if (this.spare.length < MAX_SPARE_NODES) this.spare.push(node);
  }
}
