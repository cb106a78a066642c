import type { ContractConfig, Markets, SymbolStatus } from '@exchange/contracts';
import type { SymbolFilter } from './broker-info';

/** brokerInfo's `contracts` entry: the family's fields (Contract API, brokerInfo), decimals as strings. */
export interface ContractRecord {
  filters: SymbolFilter[];
  exchangeId: string;
  symbol: string;
  symbolName: string;
  status: SymbolStatus;
  baseAsset: string;
  baseAssetPrecision: string;
  quoteAsset: string;
  quoteAssetPrecision: string;
  icebergAllowed: boolean;
  inverse: boolean;
  index: string;
  marginToken: string;
  marginPrecision: string;
  contractMultiplier: string;
  maxLeverage: string;
  makerFee: string;
  takerFee: string;
  fundingIntervalMs: number;
  riskLimits: { riskLimitId: string; quantity: string; initialMargin: string; maintMargin: string }[];
}

/** The contract itself is its base asset (the family's rule); prices are in the margin token (USDT). */
export function toContractRecord(
  markets: Markets,
  c: ContractConfig,
  status: SymbolStatus,
  exchangeId: string,
  precisionToStep: (decimals: number) => string,
): ContractRecord {
  return {
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: c.minPrice, maxPrice: c.maxPrice, tickSize: c.tickSize },
      { filterType: 'LOT_SIZE', minQty: c.minQty, maxQty: c.maxQty, stepSize: c.stepSize },
      { filterType: 'MIN_NOTIONAL', minNotional: c.minNotional },
    ],
    exchangeId,
    symbol: c.symbol,
    symbolName: c.symbol,
    status,
    baseAsset: c.symbol,
    baseAssetPrecision: c.stepSize,
    quoteAsset: c.marginToken,
    quoteAssetPrecision: c.tickSize,
    icebergAllowed: false,
    inverse: false,
    index: c.index,
    marginToken: c.marginToken,
    marginPrecision: precisionToStep(markets.asset(c.marginToken)?.precision ?? 8),
    contractMultiplier: c.contractMultiplier,
    maxLeverage: c.maxLeverage,
    makerFee: c.makerFee,
    takerFee: c.takerFee,
    fundingIntervalMs: c.fundingIntervalMs,
    riskLimits: c.riskLimits.map((t) => ({
      riskLimitId: t.riskLimitId,
      quantity: t.quantity,
      initialMargin: t.initialMargin,
      maintMargin: t.maintMargin,
    })),
  };
}
