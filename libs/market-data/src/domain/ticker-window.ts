import type { Kline } from './kline-series';
import type { PublicTrade } from './recent-trades';

export const TICKER_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * The window moves by the minute (as Binance's rolling-window ticker does, "no more than 59999 ms
 * from the requested window size"): a trade leaves it 24 h after the start of its minute. So the
 * window holds at most 1,440 buckets per symbol, whatever the trade rate.
 */
export const TICKER_BUCKET_MS = 60_000;

/** The earliest minute inside the window at `now`: the first 1m candle a start loads from the store. */
export function firstTimeInWindow(now: number): number {
  return Math.floor((now - TICKER_WINDOW_MS) / TICKER_BUCKET_MS) * TICKER_BUCKET_MS + TICKER_BUCKET_MS;
}

/** What a 24 h ticker reports, in exact integers; prices are undefined before the first trade ever. */
export interface TickerStats {
  openPrice?: bigint;
  highPrice?: bigint;
  lowPrice?: bigint;
  lastPrice?: bigint;
  volume: bigint;
  quoteVolume: bigint;
  trades: number;
}

/** One minute of trades as its 1m candle holds it. */
export type WindowMinute = Pick<
  Kline,
  'openTime' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'quoteVolume' | 'trades'
>;

/** The trades of one minute, summed. */
interface Bucket {
  start: number;
  open: bigint;
  high: bigint;
  low: bigint;
  volume: bigint;
  quoteVolume: bigint;
  trades: number;
}

/**
 * The rolling 24 h statistics of one symbol, anchored at event time: the minutes whose start is in
 * (now − 24 h, now]. Trades arrive in time order and buckets leave from the front as time moves,
 * so the sums are running totals and high/low come from monotonic queues of buckets: O(1)
 * amortised per trade, and memory bounded by the minutes of a day, not by the trades in it.
 * With no trade in the window, open, high and low are the last price (the price did not move).
 */
export class TickerWindow {
  private readonly buckets: Bucket[] = [];
  private head = 0;
  /** Indexes into `buckets` whose highs decrease (highs) / lows increase (lows) from the front. */
  private readonly highs: number[] = [];
  private readonly lows: number[] = [];
  private highHead = 0;
  private lowHead = 0;
  private volume = 0n;
  private quoteVolume = 0n;
  private trades = 0;
  private lastPrice: bigint | undefined;

  constructor(private readonly quoteOf: (price: bigint, qty: bigint) => bigint = (price, qty) => price * qty) {}

  add(trade: PublicTrade): void {
    const quote = this.quoteOf(trade.price, trade.qty);
    this.merge(this.bucketOf(trade), {
      high: trade.price,
      low: trade.price,
      volume: trade.qty,
      quoteVolume: quote,
      trades: 1,
    });
    this.lastPrice = trade.price;
  }

  /**
   * A whole minute at once, as its 1m candle sums it (a start from the history store): the same
   * bucket its trades would have made, so a replica started from candles answers as one that
   * folded every trade. Minutes come in time order, after any trade already added.
   */
  addMinute(minute: WindowMinute): void {
    const newest = this.buckets.length > this.head ? this.buckets[this.buckets.length - 1] : undefined;
    if (newest && newest.start >= minute.openTime)
      throw new Error(`ticker window: minute ${minute.openTime} is not after ${newest.start}`);
    const bucket: Bucket = {
      start: minute.openTime,
      open: minute.open,
      high: minute.high,
      low: minute.low,
      volume: 0n,
      quoteVolume: 0n,
      trades: 0,
    };
    this.buckets.push(bucket);
    this.merge(bucket, minute);
    this.lastPrice = minute.close;
  }

  /** Adds trades' sums to the newest bucket and to the window's totals. */
  private merge(bucket: Bucket, add: Pick<Bucket, 'high' | 'low' | 'volume' | 'quoteVolume' | 'trades'>): void {
    const index = this.buckets.length - 1;
    if (add.high > bucket.high) bucket.high = add.high;
    if (add.low < bucket.low) bucket.low = add.low;
    bucket.volume += add.volume;
    bucket.quoteVolume += add.quoteVolume;
    bucket.trades += add.trades;
    this.pushExtreme(this.highs, this.highHead, index, (other) => other.high <= bucket.high);
    this.pushExtreme(this.lows, this.lowHead, index, (other) => other.low >= bucket.low);
    this.volume += add.volume;
    this.quoteVolume += add.quoteVolume;
    this.trades += add.trades;
  }

  /** Drops the minutes that started at or before `now − 24 h`; true when any left. */
  roll(now: number): boolean {
    const horizon = now - TICKER_WINDOW_MS;
    const before = this.head;
    while (this.head < this.buckets.length && this.buckets[this.head]!.start <= horizon) {
      const bucket = this.buckets[this.head]!;
      this.volume -= bucket.volume;
      this.quoteVolume -= bucket.quoteVolume;
      this.trades -= bucket.trades;
      if (this.highs[this.highHead] === this.head) this.highHead += 1;
      if (this.lows[this.lowHead] === this.head) this.lowHead += 1;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.buckets.length) this.compact();
    return this.head !== before;
  }

  /** Start of the oldest minute in the window (its trades leave together), undefined when it is empty. */
  oldestTime(): number | undefined {
    return this.buckets[this.head]?.start;
  }

  /** Minutes held: at most a day's, 1,440. */
  get size(): number {
    return this.buckets.length - this.head;
  }

  /** Sets the last price from before the window (a start from the history store). */
  seedLastPrice(price: bigint | undefined): void {
    if (this.buckets.length === this.head) this.lastPrice = price;
  }

  stats(): TickerStats {
    if (this.trades === 0)
      return {
        openPrice: this.lastPrice,
        highPrice: this.lastPrice,
        lowPrice: this.lastPrice,
        lastPrice: this.lastPrice,
        volume: 0n,
        quoteVolume: 0n,
        trades: 0,
      };
    return {
      openPrice: this.buckets[this.head]!.open,
      highPrice: this.buckets[this.highs[this.highHead]!]!.high,
      lowPrice: this.buckets[this.lows[this.lowHead]!]!.low,
      lastPrice: this.lastPrice,
      volume: this.volume,
      quoteVolume: this.quoteVolume,
      trades: this.trades,
    };
  }

  /** The newest bucket, or a new one for the trade's minute (a trade older than the newest minute joins it). */
  private bucketOf(trade: PublicTrade): Bucket {
    const start = Math.floor(trade.time / TICKER_BUCKET_MS) * TICKER_BUCKET_MS;
    const newest = this.buckets.length > this.head ? this.buckets[this.buckets.length - 1] : undefined;
    if (newest && newest.start >= start) return newest;
    const bucket: Bucket = {
      start,
      open: trade.price,
      high: trade.price,
      low: trade.price,
      volume: 0n,
      quoteVolume: 0n,
      trades: 0,
    };
    this.buckets.push(bucket);
    return bucket;
  }

  /** Puts the newest bucket at the back of a monotonic queue, dropping those it dominates (itself included, when its extreme moved). */
  private pushExtreme(queue: number[], head: number, index: number, dominated: (other: Bucket) => boolean): void {
    if (queue.length > head && queue[queue.length - 1] === index) queue.pop();
    while (queue.length > head && dominated(this.buckets[queue[queue.length - 1]!]!)) queue.pop();
    queue.push(index);
  }

  /** Forgets the dropped front so memory follows the window, not all history. */
  private compact(): void {
    const shift = this.head;
    this.buckets.splice(0, shift);
    const rebase = (queue: number[], head: number): number[] => queue.slice(head).map((i) => i - shift);
    const highs = rebase(this.highs, this.highHead);
    const lows = rebase(this.lows, this.lowHead);
    this.highs.length = 0;
    this.highs.push(...highs);
    this.lows.length = 0;
    this.lows.push(...lows);
    this.head = 0;
    this.highHead = 0;
    this.lowHead = 0;
  }
}
