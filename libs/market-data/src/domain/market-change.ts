import type { KlineInterval } from './kline-intervals';
import type { Kline } from './kline-series';
import type { PriceLevel } from './l2-book';
import type { PublicTrade } from './recent-trades';

/**
 * What one folded event changed, for the public streams: each becomes one frame, encoded once
 * and sent to every subscriber of its symbol and topic.
 */
export type MarketChange =
  | {
      kind: 'diffDepth';
      symbol: string;
      time: number;
      firstUpdateId: number;
      lastUpdateId: number;
      bids: PriceLevel[];
      asks: PriceLevel[];
    }
  | { kind: 'trade'; symbol: string; trade: PublicTrade }
  | { kind: 'kline'; symbol: string; interval: KlineInterval; kline: Kline }
  | { kind: 'ticker'; symbol: string }
  | { kind: 'mergedDepth'; symbol: string };
