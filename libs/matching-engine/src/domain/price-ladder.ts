import type { RestingOrder, Side } from './order-book';

/** An order as the fast book holds it: a node of its level's intrusive doubly-linked queue. */
export class OrderNode implements RestingOrder {
  orderId = 0;
  ownerId = 0;
  side: Side = 'BUY';
  priceTicks = 0;
  lots = 0;
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  level: PriceLevel | null = null;
}

/** One price of one side: a FIFO of nodes (head is the oldest) and their running total. */
export class PriceLevel {
  totalLots = 0;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;

  constructor(readonly priceTicks: number) {}

  append(node: OrderNode): void {
    node.level = this;
    node.prev = this.tail;
    node.next = null;
    if (this.tail === null) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.totalLots += node.lots;
  }

  unlink(node: OrderNode): void {
    if (node.prev === null) this.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) this.tail = node.prev;
    else node.next.prev = node.prev;
    this.totalLots -= node.lots;
    node.prev = null;
    node.next = null;
    node.level = null;
  }
}

/**
 * The levels of one side, kept in an array sorted worst to best so the best level is the last
 * element: reading, emptying and creating the best level are O(1) pushes and pops, and new levels
 * near the touch (where nearly all of them appear) move few elements. A Map gives O(1) access to
 * a level by price for resting and for level totals.
 */
export class PriceLadder {
  /** Sorted by rank, best last. */
  readonly levels: PriceLevel[] = [];
  private readonly byPrice = new Map<number, PriceLevel>();
  /** +1 for bids (higher is better), -1 for asks, so one ascending order serves both sides. */
  private readonly direction: number;

  constructor(side: Side) {
    this.direction = side === 'BUY' ? 1 : -1;
  }

  get best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  at(priceTicks: number): PriceLevel | undefined {
    return this.byPrice.get(priceTicks);
  }

  /** The level at `priceTicks`, created in its ranked place if it does not exist. */
  obtain(priceTicks: number): PriceLevel {
    const existing = this.byPrice.get(priceTicks);
    if (existing !== undefined) return existing;
    const level = new PriceLevel(priceTicks);
    this.byPrice.set(priceTicks, level);
    const best = this.best;
    if (best === undefined || this.rank(priceTicks) > this.rank(best.priceTicks)) this.levels.push(level);
    else this.levels.splice(this.indexOf(priceTicks), 0, level);
    return level;
  }

  /** Forgets an emptied level. */
  drop(level: PriceLevel): void {
    this.byPrice.delete(level.priceTicks);
    if (this.best === level) this.levels.pop();
    else this.levels.splice(this.indexOf(level.priceTicks), 1);
  }

  private rank(priceTicks: number): number {
    return this.direction * priceTicks;
  }

  /** The first index whose level ranks at or above `priceTicks` (binary search). */
  private indexOf(priceTicks: number): number {
    const target = this.rank(priceTicks);
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.rank(this.levels[mid]!.priceTicks) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
