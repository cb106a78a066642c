import type { MarketFold } from '../domain';

/**
 * Where a replica's fold starts: the stored cut it loads into the fold, and the order.events
 * offset of each partition that cut includes (reading resumes there).
 */
export abstract class MarketStartState {
  abstract load(fold: MarketFold): Promise<number[]>;
}

/** No stored cut: every partition is read from its first offset. */
export class FromTheBeginning extends MarketStartState {
  async load(): Promise<number[]> {
    return [];
  }
}
