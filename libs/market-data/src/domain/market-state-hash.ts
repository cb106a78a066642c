import { createHash } from 'node:crypto';
import { klineIntervals } from './kline-intervals';
import type { Kline } from './kline-series';
import type { MarketFold } from './market-fold';
import type { PublicTrade } from './recent-trades';
import { MEMORY_DEPTH } from './symbol-market';

/**
 * sha256 over what the fold serves, as the events decide it: per symbol its partition's clock,
 * status, book, merged depth, the newest trades and candles memory answers with, and the 24 h
 * ticker. The change counters (versions) are left out: they count what this process folded, so
 * a replica started from the history store has other ones while serving the same answers. So is
 * how much older history memory happens to hold: the store answers for it either way.
 */
export function marketStateHash(fold: MarketFold): string {
  const hash = createHash('sha256');
  for (const symbol of [...fold.symbols.keys()].sort()) {
    const m = fold.symbols.get(symbol)!;
    hash.update(`s|${symbol}|${m.status}|${m.clock.eventTime}|${m.clock.cutWindow}|${m.lastTradeId}\n`);
    hash.update(
      `b|${m.book.lastUpdateId}|${m.book.time}|${JSON.stringify(m.book.bids.top())}|${JSON.stringify(m.book.asks.top())}\n`,
    );
    // Field by field: a cut read back from PostgreSQL's jsonb has its keys in another order.
    hash.update(
      `m|${m.mergedDirty}|${m.merged.time}|${m.merged.lastUpdateId}|${JSON.stringify(m.merged.bids)}|${JSON.stringify(m.merged.asks)}\n`,
    );
    for (const trade of m.trades.last(MEMORY_DEPTH)) hash.update(`t|${tradeLine(trade)}\n`);
    for (const interval of klineIntervals) {
      for (const kline of m.series(interval).query({ limit: MEMORY_DEPTH }) ?? [])
        hash.update(`k|${interval}|${klineLine(kline)}\n`);
    }
    const ticker = m.ticker.stats();
    hash.update(
      `x|${ticker.openPrice}|${ticker.highPrice}|${ticker.lowPrice}|${ticker.lastPrice}|${ticker.volume}|${ticker.quoteVolume}|${ticker.trades}\n`,
    );
  }
  return hash.digest('hex');
}

function tradeLine(t: PublicTrade): string {
  return `${t.tradeId}|${t.time}|${t.price}|${t.qty}|${t.isBuyerMaker}`;
}

function klineLine(k: Kline): string {
  return `${k.openTime}|${k.open}|${k.high}|${k.low}|${k.close}|${k.volume}|${k.quoteVolume}|${k.trades}|${k.takerBuyVolume}|${k.takerBuyQuoteVolume}`;
}
