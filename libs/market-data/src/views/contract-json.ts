import type { ContractConfig, Markets } from '@exchange/contracts';
import type { ContractPriceBoard, SymbolMarket } from '../domain';
import { ticker24h } from './quote-json';

/** One contract of `GET /openapi/v1/contracts`: the family's summary fields, times in ms as everywhere here. */
export interface ContractSummary {
  symbol: string;
  symbolName: string;
  baseToken: string;
  quoteToken: string;
  lastPrice: string;
  baseVolume: string;
  quoteVolume: string;
  bid: string;
  ask: string;
  high: string;
  low: string;
  productType: 'futures';
  openInterest: string;
  indexPrice: string;
  markPrice: string;
  index: string;
  indexBaseToken: string;
  startTs: number;
  endTs: number;
  fundingRate: string;
  nextFundingRate: string;
  nextFundingRateTs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Market figures from the fold (24 h window at the partition's event time), prices and rates from
 * the board ("0" until decided). Open interest is the ledger's (the sum of LONG sizes), which
 * market data does not see: "0" until the ledger publishes it.
 */
export function contractSummary(
  market: SymbolMarket,
  config: ContractConfig,
  board: ContractPriceBoard,
): ContractSummary {
  const t = ticker24h(market);
  const stats = market.ticker.stats();
  const prices = board.get(config.symbol);
  return {
    symbol: config.symbol,
    symbolName: config.symbol,
    baseToken: config.symbol,
    quoteToken: config.marginToken,
    lastPrice: t.lastPrice,
    baseVolume: t.volume,
    quoteVolume: market.scale.formatQuote(stats.quoteVolume),
    bid: t.bestBidPrice,
    ask: t.bestAskPrice,
    high: t.highPrice,
    low: t.lowPrice,
    productType: 'futures',
    openInterest: '0',
    indexPrice: prices?.indexPrice ?? '0',
    markPrice: prices?.markPrice ?? '0',
    index: config.index,
    indexBaseToken: config.marginToken,
    startTs: Math.max(0, t.time - DAY_MS),
    endTs: t.time,
    fundingRate: prices?.fundingRate ?? '0',
    nextFundingRate: prices?.nextFundingRate ?? '0',
    nextFundingRateTs: prices?.nextFundingTime ?? 0,
  };
}

/**
 * `GET /openapi/quote/v1/contract/index`: the index prices keyed by index (the family's `index`
 * map) and the mark prices keyed by contract, of every contract or of those of one index or contract.
 */
export function indexJson(
  markets: Markets,
  board: ContractPriceBoard,
  only?: readonly ContractConfig[],
): { index: Record<string, string>; markPrice: Record<string, string> } {
  const index: Record<string, string> = {};
  const markPrice: Record<string, string> = {};
  for (const c of only ?? markets.contracts) {
    const prices = board.get(c.symbol);
    if (prices?.indexPrice !== undefined) index[c.index] = prices.indexPrice;
    if (prices?.markPrice !== undefined) markPrice[c.symbol] = prices.markPrice;
  }
  return { index, markPrice };
}

/** One funding interval as the family's fundingRate lists it (times in ms). */
export interface FundingRateJson {
  symbol: string;
  intervalStart: number;
  intervalEnd: number;
  rate: string;
}

/**
 * `GET /openapi/contract/v1/fundingRate`: `current` is the running interval with the rate it would
 * fix now; `past` the last interval fixed (the board keeps the last fix only). A contract not
 * priced yet, or with no fix yet for `past`, is left out.
 */
export function fundingRatesJson(
  markets: Markets,
  board: ContractPriceBoard,
  state: 'current' | 'past',
  only?: readonly ContractConfig[],
): FundingRateJson[] {
  const rates: FundingRateJson[] = [];
  for (const c of only ?? markets.contracts) {
    const prices = board.get(c.symbol);
    if (!prices) continue;
    const interval = c.fundingIntervalMs;
    if (state === 'current')
      rates.push({
        symbol: c.symbol,
        intervalStart: prices.nextFundingTime - interval,
        intervalEnd: prices.nextFundingTime,
        rate: prices.nextFundingRate,
      });
    else if (prices.fundingRate !== undefined && prices.fundingTime !== undefined)
      rates.push({
        symbol: c.symbol,
        intervalStart: prices.fundingTime - interval,
        intervalEnd: prices.fundingTime,
        rate: prices.fundingRate,
      });
  }
  return rates;
}
