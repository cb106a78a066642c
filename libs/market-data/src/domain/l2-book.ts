import type { SymbolScale } from './scaled-decimal';

/** [price, quantity] as the API writes them: decimal strings with the symbol's decimals. */
export type PriceLevel = readonly [string, string];

/**
 * One side of an L2 book: total quantity per price, kept sorted best first. Levels are
 * replaced whole (BookChanged carries totals, "0" removes), so a level is a price key and a
 * pre-formatted pair; rendering the top N is a slice.
 */
export class BookSide {
  /** Prices, best first (descending for bids, ascending for asks). */
  private readonly prices: bigint[] = [];
  private readonly levels = new Map<bigint, PriceLevel>();

  constructor(private readonly descending: boolean) {}

  get size(): number {
    return this.prices.length;
  }

  /** Sets the level's total; zero removes it. */
  set(price: bigint, level: PriceLevel, isZero: boolean): void {
    const known = this.levels.has(price);
    if (isZero) {
      if (!known) return;
      this.levels.delete(price);
      this.prices.splice(this.indexOf(price), 1);
      return;
    }
    if (!known) this.prices.splice(this.indexOf(price), 0, price);
    this.levels.set(price, level);
  }

  /** The best `limit` levels (all of them when limit is undefined). */
  top(limit?: number): PriceLevel[] {
    const count = limit === undefined ? this.prices.length : Math.min(limit, this.prices.length);
    const out: PriceLevel[] = new Array<PriceLevel>(count);
    for (let i = 0; i < count; i++) out[i] = this.levels.get(this.prices[i]!)!;
    return out;
  }

  best(): PriceLevel | undefined {
    const price = this.prices[0];
    return price === undefined ? undefined : this.levels.get(price);
  }

  clear(): void {
    this.prices.length = 0;
    this.levels.clear();
  }

  /** Where `price` is or would be inserted (binary search on the best-first order). */
  private indexOf(price: bigint): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const p = this.prices[mid]!;
      const before = this.descending ? p > price : p < price;
      if (before) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** The L2 book of a symbol as the BookChanged events describe it, with the update id it includes. */
export class L2Book {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  lastUpdateId = 0;
  /** Event time of the last change (0 before any). */
  time = 0;

  constructor(private readonly scale: SymbolScale) {}

  /** Applies one side's levels as received: decimal strings, totals, "0" removes. */
  applyLevels(side: 'bids' | 'asks', levels: readonly (readonly [string, string])[]): void {
    const target = this[side];
    for (const [priceText, qtyText] of levels) {
      const price = this.scale.price(priceText);
      const qty = this.scale.qty(qtyText);
      target.set(price, [this.scale.formatPrice(price), this.scale.formatQty(qty)], qty === 0n);
    }
  }

  /** Replaces the whole book (a snapshot load). */
  load(bids: readonly PriceLevel[], asks: readonly PriceLevel[], lastUpdateId: number, time: number): void {
    this.bids.clear();
    this.asks.clear();
    this.applyLevels('bids', bids);
    this.applyLevels('asks', asks);
    this.lastUpdateId = lastUpdateId;
    this.time = time;
  }
}
