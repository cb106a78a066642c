import type { AssetConfig, SymbolConfig } from '@exchange/contracts';

/** The spot market the ledger's specs trade on: BTC/USDT with Binance's precisions and fees. */
export const assets: Record<string, AssetConfig> = {
  BTC: { asset: 'BTC', precision: 8 },
  USDT: { asset: 'USDT', precision: 6 },
};

export const btcusdt: SymbolConfig = {
  symbol: 'BTCUSDT',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  status: 'TRADING',
  minPrice: '0.01',
  maxPrice: '10000000',
  tickSize: '0.01',
  minQty: '0.00001',
  maxQty: '1000',
  stepSize: '0.00001',
  minNotional: '5',
  makerFee: '0.001',
  takerFee: '0.0015',
  selfTradePrevention: 'CANCEL_TAKER',
};
