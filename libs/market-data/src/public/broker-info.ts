import type { Markets, SymbolConfig, SymbolStatus } from '@exchange/contracts';
import { type ContractRecord, toContractRecord } from './contract-record';

export interface RateLimitEntry {
  rateLimitType: 'REQUESTS_WEIGHT' | 'ORDERS';
  interval: 'SECOND' | 'MINUTE' | 'DAY';
  intervalNum: number;
  limit: number;
}

export type SymbolFilter =
  | { filterType: 'PRICE_FILTER'; minPrice: string; maxPrice: string; tickSize: string }
  | { filterType: 'LOT_SIZE'; minQty: string; maxQty: string; stepSize: string }
  | { filterType: 'MIN_NOTIONAL'; minNotional: string };

export interface SymbolRecord {
  symbol: string;
  status: SymbolStatus;
  baseAsset: string;
  baseAssetPrecision: string;
  quoteAsset: string;
  quotePrecision: string;
  icebergAllowed: boolean;
  filters: SymbolFilter[];
}

export const brokerInfoTypes = ['token', 'options', 'contracts'] as const;
export type BrokerInfoType = (typeof brokerInfoTypes)[number];

export interface BrokerInfo {
  timezone: string;
  serverTime: number;
  rateLimits: RateLimitEntry[];
  brokerFilters: unknown[];
  symbols?: SymbolRecord[];
  options?: unknown[];
  contracts?: ContractRecord[];
}

/** "0.01" for 2 decimals: the family writes precisions as the smallest step, not as a count. */
export function precisionToStep(decimals: number): string {
  return decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
}

export function toSymbolRecord(markets: Markets, s: SymbolConfig, status: SymbolStatus = s.status): SymbolRecord {
  const quote = markets.asset(s.quoteAsset);
  return {
    symbol: s.symbol,
    status,
    baseAsset: s.baseAsset,
    baseAssetPrecision: s.stepSize,
    quoteAsset: s.quoteAsset,
    quotePrecision: precisionToStep(quote?.precision ?? 8),
    icebergAllowed: false,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: s.minPrice, maxPrice: s.maxPrice, tickSize: s.tickSize },
      { filterType: 'LOT_SIZE', minQty: s.minQty, maxQty: s.maxQty, stepSize: s.stepSize },
      { filterType: 'MIN_NOTIONAL', minNotional: s.minNotional },
    ],
  };
}

export interface BrokerInfoContext {
  rateLimits: RateLimitEntry[];
  serverTime: number;
  /** The runtime status of a symbol or contract (HALT, BREAK), undefined for the configured one. */
  statusOf: (symbol: string) => SymbolStatus | undefined;
  exchangeId: string;
}

/**
 * brokerInfo with the spec's fields: spot symbols under `symbols`, contracts under `contracts`
 * (CONTRACTS.md, the family's fields). Options trading is not built, so its list is empty; `type`
 * narrows the answer to one list, as the family's clients expect.
 */
export function buildBrokerInfo(markets: Markets, ctx: BrokerInfoContext, type?: BrokerInfoType): BrokerInfo {
  const info: BrokerInfo = {
    timezone: markets.config.timezone,
    serverTime: ctx.serverTime,
    rateLimits: ctx.rateLimits,
    brokerFilters: [],
  };
  if (type === undefined || type === 'token') {
    info.symbols = markets.symbols.map((s) => toSymbolRecord(markets, s, ctx.statusOf(s.symbol) ?? s.status));
  }
  if (type === undefined || type === 'options') info.options = [];
  if (type === undefined || type === 'contracts') {
    info.contracts = markets.contracts.map((c) =>
      toContractRecord(markets, c, ctx.statusOf(c.symbol) ?? c.status, ctx.exchangeId, precisionToStep),
    );
  }
  return info;
}
