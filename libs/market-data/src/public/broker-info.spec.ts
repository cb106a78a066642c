import { readFileSync } from 'node:fs';
import { Markets } from '@exchange/contracts';
import { buildBrokerInfo, precisionToStep } from './broker-info';

const markets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
const limits = [{ rateLimitType: 'REQUESTS_WEIGHT' as const, interval: 'MINUTE' as const, intervalNum: 1, limit: 1200 }];

describe('brokerInfo', () => {
  it('lists every configured symbol with the spec fields and decimal-string filters', () => {
    const info = buildBrokerInfo(markets, limits, 1_700_000_000_000, () => undefined);
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
    expect(Object.keys(buildBrokerInfo(markets, limits, 0, () => undefined, 'token'))).not.toContain('options');
    const options = buildBrokerInfo(markets, limits, 0, () => undefined, 'options');
    expect(options.symbols).toBeUndefined();
    expect(options.options).toEqual([]);
  });

  it('reports the runtime status of a symbol over the configured one', () => {
    const info = buildBrokerInfo(markets, limits, 0, (s) => (s === 'ETHBTC' ? 'HALT' : undefined));
    expect(info.symbols?.find((s) => s.symbol === 'ETHBTC')?.status).toBe('HALT');
  });

  it('writes precisions as the smallest step', () => {
    expect(precisionToStep(0)).toBe('1');
    expect(precisionToStep(2)).toBe('0.01');
    expect(precisionToStep(8)).toBe('0.00000001');
  });
});
