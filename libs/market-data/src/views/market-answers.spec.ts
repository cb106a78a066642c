import { Markets } from '@exchange/contracts';
import { type Kline, KlineSeries, MarketFold, type KlineQuery } from '../domain';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import { MarketAnswers } from './market-answers';

const markets = new Markets({
  version: 1,
  timezone: 'UTC',
  assets: [
    { asset: 'BTC', precision: 8 },
    { asset: 'USDT', precision: 8 },
    { asset: 'ETH', precision: 8 },
  ],
  symbols: testSymbols,
});
const t0 = Date.UTC(2026, 0, 1);
const MINUTES = 1400;

/** The history store, as a series that never forgets, answering by the store's rules. */
function historyOf(all: KlineSeries) {
  const calls: { query: KlineQuery; before: number }[] = [];
  const older = async (_symbol: string, _interval: string, query: KlineQuery, before: number): Promise<Kline[]> => {
    calls.push({ query, before });
    const rows = all
      .query({ limit: 10_000 })!
      .filter(
        (k) => k.openTime < before && k.openTime >= (query.startTime ?? 0) && k.openTime <= (query.endTime ?? Infinity),
      );
    return query.startTime !== undefined ? rows.slice(0, query.limit) : rows.slice(-query.limit);
  };
  return { older, calls };
}

describe('klines beyond memory', () => {
  const fold = new MarketFold(testSymbols, onePartition);
  const events = new OrderEventFactory();
  const all = new KlineSeries('1m', 100_000);
  for (let i = 0; i < MINUTES; i++) {
    const trade = events.trade('BTCUSDT', t0 + i * 60_000, String(100 + (i % 7)), '1');
    fold.apply(0, trade);
    all.add({
      tradeId: i + 1,
      time: trade.ts,
      price: BigInt(100 + (i % 7)) * 100n,
      qty: 100_000n,
      isBuyerMaker: false,
    });
  }
  const btc = fold.symbols.get('BTCUSDT')!;
  const opens = (json: Buffer) => (JSON.parse(json.toString()) as number[][]).map((k) => (k[0]! - t0) / 60_000);

  it('keeps only the newest candles in memory', () => {
    expect(btc.series('1m').oldestOpenTime).toBeGreaterThan(t0);
  });

  it('answers a range that starts before memory from the store, then memory', async () => {
    const { older, calls } = historyOf(all);
    const answers = new MarketAnswers(fold, markets, older);
    expect(opens(await answers.klines(btc, '1m', { startTime: t0, limit: 5 }))).toEqual([0, 1, 2, 3, 4]);
    const oldest = (btc.series('1m').oldestOpenTime! - t0) / 60_000;
    expect(opens(await answers.klines(btc, '1m', { startTime: t0 + (oldest - 3) * 60_000, limit: 6 }))).toEqual([
      oldest - 3,
      oldest - 2,
      oldest - 1,
      oldest,
      oldest + 1,
      oldest + 2,
    ]);
    expect(opens(await answers.klines(btc, '1m', { endTime: t0 + (oldest + 1) * 60_000, limit: 4 }))).toEqual([
      oldest - 2,
      oldest - 1,
      oldest,
      oldest + 1,
    ]);
    expect(calls.every((c) => c.before === btc.series('1m').oldestOpenTime)).toBe(true);
  });

  it('answers the most recent candles from memory alone', async () => {
    const { older, calls } = historyOf(all);
    const answers = new MarketAnswers(fold, markets, older);
    expect(opens(await answers.klines(btc, '1m', { limit: 3 }))).toEqual([MINUTES - 3, MINUTES - 2, MINUTES - 1]);
    expect(calls).toHaveLength(0);
  });
});
