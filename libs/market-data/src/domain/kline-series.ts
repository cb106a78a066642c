import { type KlineInterval, klineOpenTime } from './kline-intervals';
import type { PublicTrade } from './recent-trades';

/** One candle in exact integers (prices, base and quote amounts scaled by the symbol's decimals). */
export interface Kline {
  openTime: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  quoteVolume: bigint;
  trades: number;
  takerBuyVolume: bigint;
  takerBuyQuoteVolume: bigint;
}

export interface KlineQuery {
  startTime?: number;
  endTime?: number;
  limit: number;
}

/**
 * The newest candles of one symbol and interval, ascending by open time. Trades of a symbol
 * arrive in event-time order, so a trade updates the last candle or opens the next one; older
 * candles than `capacity` leave memory and are answered from the history store.
 */
export class KlineSeries {
  private readonly klines: Kline[] = [];
  /** False once older candles exist only in the history store. */
  private holdsAll = true;

  constructor(
    readonly interval: KlineInterval,
    readonly capacity: number,
    private readonly quoteOf: (price: bigint, qty: bigint) => bigint = (price, qty) => price * qty,
  ) {}

  /** Folds a trade in and returns the candle it changed. */
  add(trade: PublicTrade): Kline {
    const openTime = klineOpenTime(this.interval, trade.time);
    const quote = this.quoteOf(trade.price, trade.qty);
    const takerBuys = !trade.isBuyerMaker;
    const last = this.klines[this.klines.length - 1];
    if (last !== undefined && last.openTime === openTime) {
      if (trade.price > last.high) last.high = trade.price;
      if (trade.price < last.low) last.low = trade.price;
      last.close = trade.price;
      last.volume += trade.qty;
      last.quoteVolume += quote;
      last.trades += 1;
      if (takerBuys) {
        last.takerBuyVolume += trade.qty;
        last.takerBuyQuoteVolume += quote;
      }
      return last;
    }
    if (last !== undefined && last.openTime > openTime)
      throw new Error(`kline series: trade at ${trade.time} is before the ${this.interval} candle at ${last.openTime}`);
    const kline: Kline = {
      openTime,
      open: trade.price,
      high: trade.price,
      low: trade.price,
      close: trade.price,
      volume: trade.qty,
      quoteVolume: quote,
      trades: 1,
      takerBuyVolume: takerBuys ? trade.qty : 0n,
      takerBuyQuoteVolume: takerBuys ? quote : 0n,
    };
    this.klines.push(kline);
    if (this.klines.length > this.capacity + (this.capacity >> 2)) {
      this.klines.splice(0, this.klines.length - this.capacity);
      this.holdsAll = false;
    }
    return kline;
  }

  /** Replaces the held candles (a start from the history store), ascending; `holdsAll` when none older exist. */
  load(klines: readonly Kline[], holdsAll: boolean): void {
    this.klines.length = 0;
    this.klines.push(...klines.slice(-this.capacity));
    this.holdsAll = holdsAll && klines.length <= this.capacity;
  }

  /** Open time of the oldest candle held; everything from it on is here. */
  get oldestOpenTime(): number | undefined {
    return this.klines[0]?.openTime;
  }

  get latest(): Kline | undefined {
    return this.klines[this.klines.length - 1];
  }

  /**
   * Candles by the klines endpoint's rules, from memory: startTime alone gives the first
   * `limit` from it, endTime alone (or neither) the last `limit` up to it, both the first
   * `limit` of the range. Undefined when the answer may need candles older than memory holds.
   */
  query(q: KlineQuery): Kline[] | undefined {
    const oldest = this.oldestOpenTime;
    if (oldest === undefined) return this.holdsAll ? [] : undefined;
    const from = q.startTime ?? Number.NEGATIVE_INFINITY;
    const to = q.endTime ?? Number.POSITIVE_INFINITY;
    const inRange = this.klines.filter((k) => k.openTime >= from && k.openTime <= to);
    if (q.startTime !== undefined) {
      // Memory answers only when it holds the range's beginning.
      return q.startTime >= oldest || this.holdsAll ? inRange.slice(0, q.limit) : undefined;
    }
    if (inRange.length >= q.limit || this.holdsAll) return inRange.slice(-q.limit);
    return undefined;
  }
}
