import {
  advanceContractPrices,
  initialContractPriceState,
  type PriceInput,
  type PriceOutput,
} from './contract-price-fold';
import { type ContractPriceConfig, fundingRateOf } from './contract-price-rules';
import { contractPriceStateHash } from './contract-price-state-hash';
import { PriceDecimal } from './index-price-source';

// A window of 3 one-second samples and 10-second funding intervals, so every figure is worked out by hand.
const BTC: ContractPriceConfig = {
  symbol: 'BTC-SWAP-USDT',
  index: 'BTCUSDT',
  indexSource: 'spot',
  tickSize: '0.1',
  fundingIntervalMs: 10_000,
  basisWindow: 3,
};
const ETH: ContractPriceConfig = {
  symbol: 'ETH-SWAP-USDT',
  index: 'ETH-EXT',
  indexSource: 'external',
  tickSize: '0.01',
  fundingIntervalMs: 10_000,
  basisWindow: 3,
};

function run(inputs: readonly PriceInput[]) {
  const state = initialContractPriceState([BTC, ETH]);
  const outputs = inputs.flatMap((input) => advanceContractPrices(state, input));
  return { state, outputs };
}

const marks = (outputs: PriceOutput[]) =>
  outputs.flatMap((o) =>
    o.type === 'ContractPricesChanged' && o.symbol === BTC.symbol ? [[o.at, o.indexPrice, o.markPrice]] : [],
  );
const fundings = (outputs: PriceOutput[]) =>
  outputs.flatMap((o) =>
    o.type === 'FundingRateFixed' && o.symbol === BTC.symbol ? [[o.fundingTime, o.rate, o.premium, o.markPrice]] : [],
  );
const clocks = (from: number, to: number) =>
  Array.from({ length: (to - from) / 1000 + 1 }, (_, i): PriceInput => ({ type: 'Clock', at: from + i * 1000 }));

describe('Contract prices: index, mark and funding rate as a fold over event time', () => {
  it('takes the spot mid as index, the last trade while a side is empty, and an external price where configured', () => {
    const { outputs } = run([
      { type: 'SpotTrade', symbol: 'BTCUSDT', price: '49000', at: 500 },
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50011', at: 600 },
      { type: 'SpotTop', symbol: 'BTCUSDT', ask: '50011', at: 700 },
      { type: 'ExternalIndex', index: 'ETH-EXT', price: '3000.5', at: 800 },
    ]);
    // (49990 + 50011) / 2 = 50000.5: the index is exact, the mark goes to the tick (half up).
    expect(marks(outputs)).toEqual([
      [500, '49000', '49000'],
      [600, '50000.5', '50000.5'],
      [700, '49000', '49000'],
    ]);
    expect(outputs).toContainEqual({
      type: 'ContractPricesChanged',
      symbol: 'ETH-SWAP-USDT',
      indexPrice: '3000.5',
      markPrice: '3000.5',
      at: 800,
    });
  });

  it('moves the mark by the average basis of the last samples, one a second, clamped to ±0.5% of the index', () => {
    const { outputs } = run([
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50010', at: 1000 },
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50020', ask: '50040', at: 1000 },
      { type: 'Clock', at: 2000 }, // basis 30: mark 50030
      { type: 'ContractTop', symbol: BTC.symbol, bid: '49990', ask: '50010', at: 2500 }, // no sample between seconds
      { type: 'Clock', at: 3000 }, // (30 + 0) / 2
      { type: 'Clock', at: 4000 }, // (30 + 0 + 0) / 3
      { type: 'Clock', at: 5000 }, // 30 left the window
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50990', ask: '51010', at: 5000 },
      { type: 'Clock', at: 8000 }, // basis 1000 > 250 = 0.5% of 50000
    ]);
    expect(marks(outputs)).toEqual([
      [1000, '50000', '50000'],
      [2000, '50000', '50030'],
      [3000, '50000', '50015'],
      [4000, '50000', '50010'],
      [5000, '50000', '50000'],
      [8000, '50000', '50250'],
    ]);
  });

  it('fixes three funding rates, at the interest rate, negative and positive, from the average premium of each interval', () => {
    const inputs: PriceInput[] = [
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50010', at: 1000 },
      { type: 'ContractTop', symbol: BTC.symbol, bid: '49990', ask: '50010', at: 1000 },
      { type: 'Clock', at: 10_000 },
      // Basis −1000, averaged −333.33 at once and clamped to −250: premium −0.5% all interval.
      { type: 'ContractTop', symbol: BTC.symbol, bid: '48990', ask: '49010', at: 10_000 },
      { type: 'Clock', at: 20_000 },
      // Basis +200: at 21 s the window averages (−1000 − 1000 + 200) / 3 = −600, clamped: −0.5%; at
      // 22 s (−1000 + 200 + 200) / 3 = −200: mark 49800, −0.4%; from 23 s on +200: 0.4%, eight times.
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50190', ask: '50210', at: 20_000 },
      { type: 'Clock', at: 30_000 },
    ];
    const { outputs } = run(inputs);
    // P = 0: rate = 0 + clamp(0.01%, ±0.05%) = 0.01%. P = −0.5%: −0.5% + 0.05%. P = (−0.005 − 0.004 + 8 × 0.004) / 10 = 0.23%: 0.23% − 0.05%.
    expect(fundings(outputs)).toEqual([
      [10_000, '0.0001', '0', '50000'],
      [20_000, '-0.0045', '-0.005', '49750'],
      [30_000, '0.0018', '0.0023', '50200'],
    ]);
    // A clock every second gives the same rates and the same state as one clock per interval.
    const ticking = run([
      inputs[0]!,
      inputs[1]!,
      ...clocks(2000, 10_000),
      inputs[3]!,
      ...clocks(11_000, 20_000),
      inputs[5]!,
      ...clocks(21_000, 30_000),
    ]);
    expect(fundings(ticking.outputs)).toEqual(fundings(outputs));
    expect(contractPriceStateHash(ticking.state)).toBe(contractPriceStateHash(run(inputs).state));
  });

  it('clamps the rate to ±0.75% and the premium correction to ±0.05%', () => {
    expect(fundingRateOf(new PriceDecimal('0.01')).toFixed()).toBe('0.0075');
    expect(fundingRateOf(new PriceDecimal('-0.02')).toFixed()).toBe('-0.0075');
    expect(fundingRateOf(new PriceDecimal('0.00012')).toFixed()).toBe('0.0001');
    expect(fundingRateOf(new PriceDecimal('-0.0001')).toFixed()).toBe('0.0001');
    expect(fundingRateOf(new PriceDecimal('0.0009')).toFixed()).toBe('0.0004');
  });

  it('gives two replicas, and a replay, the same outputs and state hash; an hour of gap is sampled without a loop per second', () => {
    const inputs: PriceInput[] = [
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50010', at: 1000 },
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50090', ask: '50110', at: 1500 },
      { type: 'SpotTrade', symbol: 'BTCUSDT', price: '50001', at: 2200 },
      { type: 'ExternalIndex', index: 'ETH-EXT', price: '3001', at: 2300 },
      { type: 'Clock', at: 3600 * 1000 },
    ];
    const [a, b] = [run(inputs), run(inputs)];
    expect(a.outputs).toEqual(b.outputs);
    expect(contractPriceStateHash(a.state)).toBe(contractPriceStateHash(b.state));
    // 360 intervals of 10 s were fixed in the gap, each at the same premium once the window filled:
    // basis 100 on an index of 50000 is 0.2%, less the 0.05% correction.
    expect(fundings(a.outputs)).toHaveLength(360);
    expect(fundings(a.outputs).at(-1)).toEqual([3600 * 1000, '0.0015', '0.002', '50100']);
  });
});
