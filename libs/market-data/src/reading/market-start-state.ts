import type { MarketFold } from '../domain';
import type { MarketHistoryStore } from '../history/market-history.store';
import { loadStoredPartitions } from '../history/stored-start';

/**
 * Where a replica's fold starts: the stored cut it loads into the fold, and the order.events
 * offset of each partition that cut includes (reading resumes there).
 */
export abstract class MarketStartState {
  abstract load(fold: MarketFold): Promise<number[]>;
}

/** The newest cut per partition and the history at the writer's checkpoint, from PostgreSQL. */
export class StoredStartState extends MarketStartState {
  constructor(
    private readonly store: MarketHistoryStore,
    private readonly partitions: number,
  ) {
    super();
  }

  async load(fold: MarketFold): Promise<number[]> {
    const starts = await loadStoredPartitions(
      fold,
      this.store,
      Array.from({ length: this.partitions }, (_, p) => p),
    );
    return Array.from({ length: this.partitions }, (_, p) => starts.get(p)?.from ?? 0);
  }
}
