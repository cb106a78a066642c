import { readFileSync } from 'node:fs';
import { Markets } from '@exchange/contracts';
import { buildBrokerInfo, precisionToStep } from './broker-info';

const markets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
const limits = [
  { rateLimitType: 'REQUESTS_WEIGHT' as const, interval: 'MINUTE' as const, intervalNum: 1, limit: 1200 },
];
const ctx = (serverTime = 0, statusOf: (symbol: string) => 'HALT' | undefined = () => undefined) => ({
  rateLimits: limits,
  serverTime,
  statusOf,
  exchangeId: '301',
});

describe('brokerInfo', () => {
  it('lists every configured symbol with the spec fields and decimal-string filters', () => {
    const info = buildBrokerInfo(markets, ctx(1_700_000_000_000));
    const btc = info.symbols?.find((s) => s.symbol === 'BTCUSDT');
    expect(btc).toEqual({
      symbol: 'BTCUSDT',
      status: 'TRADING',
      baseAsset: 'BTC',
      baseAssetPrecision: '0.00001',
      quoteAsset: 'USDT',
      quotePrecision: '0.00000001',
      icebergAllowed: false,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '1000', stepSize: '0.00001' },
        { filterType: 'MIN_NOTIONAL', minNotional: '5' },
      ],
    });
    expect(info.symbols?.map((s) => s.symbol)).toEqual(expect.arrayContaining(['BTCUSDT', 'ETHUSDT', 'ETHBTC']));
    expect(info.serverTime).toBe(1_700_000_000_000);
    expect(info.rateLimits).toEqual(limits);
  });

  it('narrows the answer to one list when a type is given', () => {
    expect(Object.keys(buildBrokerInfo(markets, ctx(), 'token'))).not.toContain('options');
    const options = buildBrokerInfo(markets, ctx(), 'options');
    expect(options.symbols).toBeUndefined();
    expect(options.options).toEqual([]);
    expect(options.contracts).toBeUndefined();
    const contracts = buildBrokerInfo(markets, ctx(), 'contracts');
    expect(Object.keys(contracts)).toEqual(['timezone', 'serverTime', 'rateLimits', 'brokerFilters', 'contracts']);
  });

  it("lists the contracts with the family's fields: the contract as base asset, USDT margin, multiplier, risk limits", () => {
    const info = buildBrokerInfo(markets, ctx());
    expect(info.contracts?.map((c) => c.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
    expect(info.contracts?.[0]).toEqual({
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.1', maxPrice: '10000000', tickSize: '0.1' },
        { filterType: 'LOT_SIZE', minQty: '1', maxQty: '1000000', stepSize: '1' },
        { filterType: 'MIN_NOTIONAL', minNotional: '1' },
      ],
      exchangeId: '301',
      symbol: 'BTC-SWAP-USDT',
      symbolName: 'BTC-SWAP-USDT',
      status: 'TRADING',
      baseAsset: 'BTC-SWAP-USDT',
      baseAssetPrecision: '1',
      quoteAsset: 'USDT',
      quoteAssetPrecision: '0.1',
      icebergAllowed: false,
      inverse: false,
      index: 'BTCUSDT',
      marginToken: 'USDT',
      marginPrecision: '0.00000001',
      contractMultiplier: '0.001',
      maxLeverage: '20',
      makerFee: '0.0002',
      takerFee: '0.0006',
      fundingIntervalMs: 28_800_000,
      riskLimits: [
        { riskLimitId: '1', quantity: '1000000', initialMargin: '0.05', maintMargin: '0.005' },
        { riskLimitId: '2', quantity: '2000000', initialMargin: '0.1', maintMargin: '0.01' },
        { riskLimitId: '3', quantity: '4000000', initialMargin: '0.2', maintMargin: '0.02' },
      ],
    });
  });

  it('reports the runtime status of a symbol over the configured one', () => {
    const info = buildBrokerInfo(
      markets,
      ctx(0, (s) => (s === 'ETHBTC' || s === 'ETH-SWAP-USDT' ? 'HALT' : undefined)),
    );
    expect(info.symbols?.find((s) => s.symbol === 'ETHBTC')?.status).toBe('HALT');
    expect(info.contracts?.find((c) => c.symbol === 'ETH-SWAP-USDT')?.status).toBe('HALT');
  });

  it('writes precisions as the smallest step', () => {
    expect(precisionToStep(0)).toBe('1');
    expect(precisionToStep(2)).toBe('0.01');
    expect(precisionToStep(8)).toBe('0.00000001');
  });
});
