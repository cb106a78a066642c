import type { Config } from '@exchange/platform';
import { type KlineRetention, parseKlineRetention } from './domain';

export const MARKET_DATA_SETTINGS = Symbol('MARKET_DATA_SETTINGS');

export interface MarketDataSettings {
  /** A partition's books are cut into the store after this many book updates… */
  cutEveryUpdates: number;
  /** …or this long after the last cut (books changed or not), whichever comes first: it bounds what a new replica reads. */
  cutEveryMs: number;
  /** Stored trades older than this go when a cut is written (0: kept forever); each symbol keeps its newest 1,000. */
  tradeRetentionMs: number;
  /** Stored candles older than this per interval go after cuts (absent: kept forever); each symbol keeps its newest 1,000. */
  klineRetention: KlineRetention;
}

export function marketDataSettings(config: Config): MarketDataSettings {
  return {
    cutEveryUpdates: 1000,
    cutEveryMs: config.MARKET_DATA_CUT_INTERVAL_MS,
    tradeRetentionMs: config.MARKET_DATA_TRADE_RETENTION_MS,
    klineRetention: parseKlineRetention(config.MARKET_DATA_KLINE_RETENTION_DAYS),
  };
}
