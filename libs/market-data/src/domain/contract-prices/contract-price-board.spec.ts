import { MarketFold } from '../market-fold';
import type { MarketChange } from '../market-change';
import { onePartition, OrderEventFactory, testContract, testSymbols } from '../../testing/order-event-fixtures';
import {
  ContractPriceBoard,
  type ContractPriceRecord,
  type FixedRates,
  noteFixedRates,
  priceRecordOf,
  restorePriceRecord,
} from './contract-price-board';
import { advanceContractPrices, initialContractPriceState, type PriceInput } from './contract-price-fold';
import type { ContractPriceConfig } from './contract-price-rules';
import { contractPriceStateHash } from './contract-price-state-hash';
import { priceInputsOf, seedInputsOf } from './price-inputs';

const BTC: ContractPriceConfig = {
  symbol: 'BTC-SWAP-USDT',
  index: 'BTCUSDT',
  indexSource: 'spot',
  tickSize: '0.1',
  fundingIntervalMs: 10_000,
  basisWindow: 3,
};
const record = (at: number, seq: number, markPrice: string): ContractPriceRecord => ({
  symbol: BTC.symbol,
  at,
  seq,
  markPrice,
  nextFundingRate: '0.0001',
  nextFundingTime: 10_000,
  basis: [],
  premiumSum: '0',
  premiumCount: 0,
});

describe('the contract prices board', () => {
  it('keeps the latest (event time, step) per contract: a copy or an older decision changes nothing', () => {
    const board = new ContractPriceBoard();
    const told: string[] = [];
    board.onAccepted((r) => told.push(r.markPrice!));
    expect(board.accept(record(2000, 0, '100'))).toBe(true);
    expect(board.accept(record(2000, 0, '101'))).toBe(false);
    expect(board.accept(record(1000, 5, '102'))).toBe(false);
    expect(board.accept(record(2000, 1, '103'))).toBe(true);
    expect(board.accept(record(3000, 0, '103'))).toBe(true);
    expect([board.get(BTC.symbol)?.markPrice, board.version, told]).toEqual(['103', 3, ['100', '103']]);
  });

  it('restores a decider from its saved record: the same state, so the same next decisions', () => {
    const inputs: PriceInput[] = [
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50010', at: 1000 },
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50020', ask: '50040', at: 1000 },
      { type: 'Clock', at: 12_000 },
      { type: 'ContractTop', symbol: BTC.symbol, bid: '50090', ask: '50110', at: 12_500 },
    ];
    const live = initialContractPriceState([BTC]);
    const fixed: FixedRates = new Map();
    for (const input of inputs) noteFixedRates(fixed, advanceContractPrices(live, input));
    const saved = priceRecordOf(live, live.contracts.get(BTC.symbol)!, fixed, 0);
    expect(saved).toMatchObject({
      at: 12_500,
      indexPrice: '50000',
      markPrice: '50030',
      fundingRate: '0.0001',
      fundingTime: 10_000,
      nextFundingTime: 20_000,
      basis: ['30', '30', '30'],
    });

    const restored = initialContractPriceState([BTC]);
    const restoredFixed: FixedRates = new Map();
    restorePriceRecord(restored, restoredFixed, saved);
    // The spot quote is not in the record: a starting decider takes it from its fold (seed inputs).
    advanceContractPrices(restored, { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990', ask: '50010', at: 12_500 });
    const next: PriceInput = { type: 'Clock', at: 30_000 };
    expect(advanceContractPrices(restored, next)).toEqual(advanceContractPrices(live, next));
    expect(contractPriceStateHash(restored)).toBe(contractPriceStateHash(live));
    expect(restoredFixed.get(BTC.symbol)).toEqual({ rate: '0.0001', time: 10_000 });
  });
});

describe('the prices inputs of the market fold', () => {
  it('turns each folded event into the tops it changed, an index trade and the partition clock', () => {
    const fold = new MarketFold([...testSymbols, testContract], onePartition);
    const events = new OrderEventFactory();
    const inputsOf = (event: Parameters<MarketFold['apply']>[1]) => {
      const changes: MarketChange[] = [];
      fold.apply(0, event, changes);
      return priceInputsOf(fold, 0, changes, new Set(['BTCUSDT']));
    };
    expect(inputsOf(events.book('BTCUSDT', 1000, [['49990', '1']], []))).toEqual([
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990.00', at: 1000 },
      { type: 'Clock', at: 1000 },
    ]);
    expect(inputsOf(events.trade('BTCUSDT', 1500, '50000', '0.1'))).toEqual([
      { type: 'SpotTrade', symbol: 'BTCUSDT', price: '50000.00', at: 1500 },
      { type: 'Clock', at: 1500 },
    ]);
    expect(inputsOf(events.book('BTC-SWAP-USDT', 1600, [['50020', '3']], [['50040', '1']]))).toEqual([
      { type: 'ContractTop', symbol: 'BTC-SWAP-USDT', bid: '50020.0', ask: '50040.0', at: 1600 },
      { type: 'Clock', at: 1600 },
    ]);
    // ETHBTC is no index: its events only move time.
    expect(inputsOf(events.book('ETHBTC', 1700, [['0.05', '1']], []))).toEqual([{ type: 'Clock', at: 1700 }]);
    expect(seedInputsOf(fold, ['BTCUSDT', 'BTC-SWAP-USDT'])).toEqual([
      { type: 'SpotTrade', symbol: 'BTCUSDT', price: '50000.00', at: 1700 },
      { type: 'SpotTop', symbol: 'BTCUSDT', bid: '49990.00', at: 1700 },
      { type: 'ContractTop', symbol: 'BTC-SWAP-USDT', bid: '50020.0', ask: '50040.0', at: 1700 },
    ]);
  });
});
