import { readFileSync } from 'node:fs';
import { Markets } from './markets';

type Json = Record<string, unknown>;
const shipped = JSON.parse(readFileSync('config/markets.json', 'utf8')) as {
  assets: Json[];
  symbols: Json[];
  contracts: Json[];
};

/** The shipped file with BTC-SWAP-USDT changed by `change`. */
function withBtcSwap(change: Json): Json {
  return {
    ...shipped,
    contracts: shipped.contracts.map((c) => (c['symbol'] === 'BTC-SWAP-USDT' ? { ...c, ...change } : c)),
  };
}

const minimal = {
  symbol: 'BTC-PERP',
  index: 'BTCUSDT',
  status: 'TRADING',
  contractMultiplier: '0.001',
  minPrice: '0.1',
  maxPrice: '1000000',
  tickSize: '0.1',
  minQty: '1',
  maxQty: '5000',
  stepSize: '1',
  minNotional: '1',
};

describe('Markets: contracts', () => {
  it('ships BTC-SWAP-USDT and ETH-SWAP-USDT, kept apart from the spot symbols', () => {
    const markets = Markets.fromJson(shipped);
    expect(markets.contracts.map((c) => [c.symbol, c.index, c.contractMultiplier, c.tickSize, c.stepSize])).toEqual([
      ['BTC-SWAP-USDT', 'BTCUSDT', '0.001', '0.1', '1'],
      ['ETH-SWAP-USDT', 'ETHUSDT', '0.01', '0.01', '1'],
    ]);
    // Every spot reader asks symbol()/symbols: a contract symbol stays unknown (-1121) there.
    expect(markets.symbol('BTC-SWAP-USDT')).toBeUndefined();
    expect(markets.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'ETHBTC']);
    expect(markets.contract('BTCUSDT')).toBeUndefined();
  });

  it('gives a contract the defaults of CONTRACTS.md: 0.02% / 0.06%, 20×, one tier of 5% / 0.5%, funding every 8 h', () => {
    const c = Markets.fromJson({ ...shipped, contracts: [minimal] }).contract('BTC-PERP');
    expect(c).toMatchObject({
      marginToken: 'USDT',
      makerFee: '0.0002',
      takerFee: '0.0006',
      maxLeverage: '20',
      fundingIntervalMs: 28_800_000,
    });
    expect(c?.riskLimits).toEqual([
      { riskLimitId: '1', quantity: '5000', initialMargin: '0.05', maintMargin: '0.005' },
    ]);
  });

  it('lets the environment override every funding interval', () => {
    const markets = Markets.fromJson(shipped, { contractFundingIntervalMs: 5000 });
    expect(markets.contracts.map((c) => c.fundingIntervalMs)).toEqual([5000, 5000]);
  });

  it('reads a file without a contracts section as before', () => {
    const { contracts: _, ...spotOnly } = shipped;
    expect(Markets.fromJson(spotOnly).contracts).toEqual([]);
  });

  const tiers = (...t: [string, string, string][]) =>
    t.map(([quantity, initialMargin, maintMargin], i) => ({
      riskLimitId: String(i + 1),
      quantity,
      initialMargin,
      maintMargin,
    }));
  it.each<[string, Json, RegExp]>([
    ['an unknown index symbol', { index: 'XRPUSDT' }, /BTC-SWAP-USDT names unknown index symbol XRPUSDT/],
    ['an index quoted in another token', { index: 'ETHBTC' }, /index ETHBTC is quoted in BTC, not USDT/],
    ['a margin token other than USDT', { marginToken: 'BTC' }, /is margined in BTC; only USDT is supported/],
    [
      'tiers whose quantity does not increase',
      { riskLimits: tiers(['100', '0.05', '0.005'], ['100', '0.1', '0.01']) },
      /tier 2 does not increase on tier 1/,
    ],
    [
      'tiers whose margin goes down',
      { riskLimits: tiers(['100', '0.1', '0.01'], ['200', '0.05', '0.005']) },
      /tier 2 does not increase on tier 1/,
    ],
    [
      'maintMargin equal to initialMargin',
      { riskLimits: tiers(['100', '0.05', '0.05']) },
      /tier 1: maintMargin must be above 0 and below initialMargin/,
    ],
    [
      'maintMargin above initialMargin',
      { riskLimits: tiers(['100', '0.05', '0.06']) },
      /tier 1: maintMargin must be above 0 and below initialMargin/,
    ],
    [
      'a leverage above 1 / initialMargin',
      { maxLeverage: '21' },
      /maxLeverage 21 is above 1 \/ initialMargin of tier 1/,
    ],
    ['a leverage below 1', { maxLeverage: '0.5' }, /maxLeverage below 1/],
    [
      'values finer than USDT',
      { contractMultiplier: '0.00000001' },
      /tickSize × stepSize × contractMultiplier has 9 decimals, more than USDT's precision 8/,
    ],
    ['the name of a spot symbol', { symbol: 'ETHBTC' }, /contract ETHBTC has the name of a spot symbol/],
    ['the name of a spot v2 pair', { symbol: 'BTC-USDT' }, /has the name of spot symbol BTCUSDT's v2 pair/],
    ['the name of another contract', { symbol: 'ETH-SWAP-USDT' }, /contract ETH-SWAP-USDT is configured twice/],
  ])('refuses %s', (_, change, message) => {
    expect(() => Markets.fromJson(withBtcSwap(change))).toThrow(message);
  });

  it('accepts values exactly at USDT precision', () => {
    expect(() => Markets.fromJson(withBtcSwap({ contractMultiplier: '0.0000001', tickSize: '1' }))).not.toThrow();
  });
});
