import type { SymbolStatus } from '@exchange/contracts';
import type { KlineInterval } from './kline-intervals';
import type { Kline } from './kline-series';
import type { PriceLevel } from './l2-book';
import type { MarketFold } from './market-fold';
import type { PublicTrade } from './recent-trades';
import type { MergedDepth, PartitionClock, SymbolMarket } from './symbol-market';

/** One symbol's book side of a cut: what the history store cannot rebuild from trades. */
export interface SymbolCut {
  symbol: string;
  status: SymbolStatus;
  lastUpdateId: number;
  time: number;
  bids: PriceLevel[];
  asks: PriceLevel[];
  merged: MergedDepth;
  mergedDirty: boolean;
}

/**
 * The books of one partition as of an order.events offset (every event below it folded), with
 * the partition's event time and cut position. Trades and candles are not in it: they are in
 * the history tables, written in the same transaction.
 */
export interface PartitionCut {
  partition: number;
  offset: number;
  clock: PartitionClock;
  symbols: SymbolCut[];
}

export function takeCut(fold: MarketFold, partition: number, offset: number): PartitionCut {
  const clock = fold.clock(partition);
  return {
    partition,
    offset,
    clock: { ...clock },
    symbols: fold.symbolsOf(partition).map((m) => ({
      symbol: m.symbol,
      status: m.status,
      lastUpdateId: m.book.lastUpdateId,
      time: m.book.time,
      bids: m.book.bids.top(),
      asks: m.book.asks.top(),
      merged: m.merged,
      mergedDirty: m.mergedDirty,
    })),
  };
}

/** Puts a cut's books and clock into the fold (symbols no longer configured are ignored). */
export function restoreCut(fold: MarketFold, cut: PartitionCut): void {
  Object.assign(fold.clock(cut.partition), cut.clock);
  for (const s of cut.symbols) {
    const market = fold.symbols.get(s.symbol);
    if (!market) continue;
    market.status = s.status;
    market.book.load(s.bids, s.asks, s.lastUpdateId, s.time);
    market.merged = s.merged;
    market.mergedDirty = s.mergedDirty;
  }
}

/** A symbol's history as stored: what its trades and candles looked like at the stored offset. */
export interface SymbolHistory {
  /** The newest trades, oldest first (up to the memory depth). */
  recentTrades: PublicTrade[];
  /** The 1m candles inside the 24 h window at the stored event time, oldest first: the window by the minute, whatever the trade rate. */
  windowMinutes: Kline[];
  /** The newest candles per interval, ascending, and whether older ones exist. */
  klines: Map<KlineInterval, { klines: Kline[]; holdsAll: boolean }>;
  lastTradeId: number;
}

export function restoreHistory(market: SymbolMarket, history: SymbolHistory): void {
  for (const trade of history.recentTrades) market.trades.add(trade);
  for (const minute of history.windowMinutes) market.ticker.addMinute(minute);
  market.ticker.seedLastPrice(history.recentTrades[history.recentTrades.length - 1]?.price);
  for (const [interval, stored] of history.klines) market.series(interval).load(stored.klines, stored.holdsAll);
  market.lastTradeId = history.lastTradeId;
}
