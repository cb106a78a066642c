import type { MarketChange, MarketFold } from '../domain';
import type { HistoryBatch } from './market-history.store';

/**
 * What the changes folded from `expectedOffset` up to `nextOffset` add to the history: their
 * trades, and each candle they touched once, as it stands in the fold now. The book updates are
 * counted for the caller, which decides whether a cut is due.
 */
export function historyBatchOf(
  fold: MarketFold,
  partition: number,
  changes: readonly MarketChange[],
  expectedOffset: number,
  nextOffset: number,
): { batch: HistoryBatch; bookUpdates: number } {
  const batch: HistoryBatch = {
    partition,
    expectedOffset,
    nextOffset,
    eventTime: fold.clock(partition).eventTime,
    trades: [],
    klines: [],
  };
  const klines = new Map<string, HistoryBatch['klines'][number]>();
  let bookUpdates = 0;
  for (const change of changes) {
    if (change.kind === 'diffDepth') bookUpdates += 1;
    else if (change.kind === 'trade')
      batch.trades.push({ market: fold.symbols.get(change.symbol)!, trade: change.trade });
    // A candle touched several times is written once, as it stands now.
    else if (change.kind === 'kline')
      klines.set(`${change.symbol}|${change.interval}|${change.kline.openTime}`, {
        market: fold.symbols.get(change.symbol)!,
        interval: change.interval,
        kline: change.kline,
      });
  }
  batch.klines = [...klines.values()];
  return { batch, bookUpdates };
}
