import type { SymbolStatus } from '@exchange/contracts';
import { type KlineInterval, klineIntervals } from './kline-intervals';
import { KlineSeries } from './kline-series';
import { L2Book, type PriceLevel } from './l2-book';
import { RecentTrades } from './recent-trades';
import type { SymbolScale } from './scaled-decimal';
import { TickerWindow } from './ticker-window';

export type MarketKind = 'spot' | 'contract';

/** What the fold needs to know of a symbol, spot or contract. */
export interface MarketSymbolConfig {
  symbol: string;
  tickSize: string;
  stepSize: string;
  status: SymbolStatus;
  /** A contract's quantity counts contracts of this many units: its quote amounts are price × quantity × this. */
  contractMultiplier?: string;
  kind?: MarketKind;
}

/** Event time and cut position of one order.events partition. */
export interface PartitionClock {
  /** The largest event ts seen: every event's time is its ts clamped to this, never earlier. */
  eventTime: number;
  /** Index of the 300 ms window the last cut closed (floor(eventTime / 300)). */
  cutWindow: number;
}

export const MERGED_DEPTH_LEVELS = 40;
/** Trades and candles kept in memory per symbol (and per interval): the largest limit served. */
export const MEMORY_DEPTH = 1000;

/** The top of the book as of the last 300 ms event-time cut: what depth/merged serves. */
export interface MergedDepth {
  bids: PriceLevel[];
  asks: PriceLevel[];
  time: number;
  lastUpdateId: number;
}

/**
 * Every read model of one symbol. Versions count changes so that serialised answers can be
 * cached until the model they were written from changes.
 */
export class SymbolMarket {
  readonly book: L2Book;
  readonly trades = new RecentTrades(MEMORY_DEPTH);
  readonly klines: ReadonlyMap<KlineInterval, KlineSeries>;
  readonly ticker: TickerWindow;
  status: SymbolStatus;
  lastTradeId = 0;
  merged: MergedDepth = { bids: [], asks: [], time: 0, lastUpdateId: 0 };
  /** The book changed since the last cut. */
  mergedDirty = false;
  bookVersion = 0;
  tradeVersion = 0;
  tickerVersion = 0;
  mergedVersion = 0;

  constructor(
    readonly symbol: string,
    readonly scale: SymbolScale,
    status: SymbolStatus,
    /** The clock of the symbol's partition: a 24 h ticker reports its statistics as of this time. */
    readonly clock: PartitionClock,
    /** Spot and contract symbols fold alike; each family's paths serve only its own. */
    readonly kind: MarketKind = 'spot',
  ) {
    this.book = new L2Book(scale);
    this.status = status;
    const quoteOf = (price: bigint, qty: bigint): bigint => scale.quote(price, qty);
    this.ticker = new TickerWindow(quoteOf);
    this.klines = new Map(klineIntervals.map((i) => [i, new KlineSeries(i, MEMORY_DEPTH, quoteOf)]));
  }

  /** Takes the 300 ms cut: the merged depth becomes the book as it stands. */
  cut(): void {
    this.merged = {
      bids: this.book.bids.top(MERGED_DEPTH_LEVELS),
      asks: this.book.asks.top(MERGED_DEPTH_LEVELS),
      time: this.book.time,
      lastUpdateId: this.book.lastUpdateId,
    };
    this.mergedDirty = false;
    this.mergedVersion += 1;
  }

  series(interval: KlineInterval): KlineSeries {
    return this.klines.get(interval)!;
  }
}
