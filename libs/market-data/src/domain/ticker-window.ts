import type { PublicTrade } from './recent-trades';

export const TICKER_WINDOW_MS = 24 * 60 * 60 * 1000;

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

/**
 * The rolling 24 h statistics of one symbol, anchored at event time: trades in (now − 24 h, now].
 * Trades arrive in time order and leave from the front as time moves, so the sums are running
 * totals and high/low come from monotonic queues: O(1) amortised per trade, whatever the volume.
 * With no trade in the window, open, high and low are the last price (the price did not move).
 */
export class TickerWindow {
  private readonly window: PublicTrade[] = [];
  private head = 0;
  /** Indexes into `window` whose prices decrease (highs) / increase (lows) from the front. */
  private readonly highs: number[] = [];
  private readonly lows: number[] = [];
  private highHead = 0;
  private lowHead = 0;
  private volume = 0n;
  private quoteVolume = 0n;
  private lastPrice: bigint | undefined;

  constructor(private readonly quoteOf: (price: bigint, qty: bigint) => bigint = (price, qty) => price * qty) {}

  add(trade: PublicTrade): void {
    const index = this.window.length;
    this.window.push(trade);
    while (this.highs.length > this.highHead && this.window[this.highs[this.highs.length - 1]!]!.price <= trade.price) this.highs.pop();
    this.highs.push(index);
    while (this.lows.length > this.lowHead && this.window[this.lows[this.lows.length - 1]!]!.price >= trade.price) this.lows.pop();
    this.lows.push(index);
    this.volume += trade.qty;
    this.quoteVolume += this.quoteOf(trade.price, trade.qty);
    this.lastPrice = trade.price;
  }

  /** Drops trades at or before `now − 24 h`; true when any left. */
  roll(now: number): boolean {
    const horizon = now - TICKER_WINDOW_MS;
    const before = this.head;
    while (this.head < this.window.length && this.window[this.head]!.time <= horizon) {
      const trade = this.window[this.head]!;
      this.volume -= trade.qty;
      this.quoteVolume -= this.quoteOf(trade.price, trade.qty);
      if (this.highs[this.highHead] === this.head) this.highHead += 1;
      if (this.lows[this.lowHead] === this.head) this.lowHead += 1;
      this.head += 1;
    }
    if (this.head > 4096 && this.head * 2 > this.window.length) this.compact();
    return this.head !== before;
  }

  /** Time of the oldest trade in the window, undefined when it is empty. */
  oldestTime(): number | undefined {
    return this.window[this.head]?.time;
  }

  /** Sets the last price from before the window (a start from the history store). */
  seedLastPrice(price: bigint | undefined): void {
    if (this.window.length === this.head) this.lastPrice = price;
  }

  stats(): TickerStats {
    const count = this.window.length - this.head;
    if (count === 0) return { openPrice: this.lastPrice, highPrice: this.lastPrice, lowPrice: this.lastPrice, lastPrice: this.lastPrice, volume: 0n, quoteVolume: 0n, trades: 0 };
    return {
      openPrice: this.window[this.head]!.price,
      highPrice: this.window[this.highs[this.highHead]!]!.price,
      lowPrice: this.window[this.lows[this.lowHead]!]!.price,
      lastPrice: this.lastPrice,
      volume: this.volume,
      quoteVolume: this.quoteVolume,
      trades: count,
    };
  }

  /** The trades in the window, oldest first (what a snapshot of the window is). */
  trades(): PublicTrade[] {
    return this.window.slice(this.head);
  }

  /** Forgets the dropped front so memory follows the window, not all history. */
  private compact(): void {
    const shift = this.head;
    this.window.splice(0, shift);
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
