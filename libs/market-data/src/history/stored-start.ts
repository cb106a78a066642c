import { type MarketFold, restoreCut, restoreHistory } from '../domain';
import type { MarketHistoryStore } from './market-history.store';

export interface PartitionStart {
  /** Where reading resumes: the stored cut's offset (0 without one). */
  from: number;
  /** The history writer's checkpoint: trades and candles below it are already in the fold. */
  checkpoint: number;
}

/**
 * Loads the newest stored cut of each partition and the history at the writer's checkpoint into
 * the fold. The cut may be older than the checkpoint; events between them are read again, and
 * the fold skips their trades (by trade id) while it replays their book changes.
 */
export async function loadStoredPartitions(
  fold: MarketFold,
  store: MarketHistoryStore,
  partitions: number[],
): Promise<Map<number, PartitionStart>> {
  const stored = await store.load(partitions, (p) => fold.symbolsOf(p));
  const starts = new Map<number, PartitionStart>();
  for (const [partition, s] of stored) {
    if (s.cut) restoreCut(fold, s.cut);
    for (const [symbol, history] of s.histories) restoreHistory(fold.symbols.get(symbol)!, history);
    starts.set(partition, { from: s.cut?.offset ?? 0, checkpoint: s.checkpoint });
  }
  return starts;
}
