import { klineCloseTime, klineOpenTime } from './kline-intervals';
import { MarketFold } from './market-fold';
import type { MarketChange } from './market-change';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import { depthJson, klineRow, mergedDepthJson, ticker24h } from '../views/quote-json';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const t0 = Date.UTC(2026, 0, 14, 10, 0, 0); // a Wednesday

function setup() {
  const fold = new MarketFold(testSymbols, onePartition);
  const events = new OrderEventFactory();
  const btc = fold.symbols.get('BTCUSDT')!;
  return { fold, events, btc };
}

describe('kline buckets', () => {
  it('puts the last millisecond of a minute in that minute and the next one in the next', () => {
    const end = Date.UTC(2026, 0, 14, 10, 0, 59, 999);
    expect(klineOpenTime('1m', end)).toBe(Date.UTC(2026, 0, 14, 10, 0));
    expect(klineOpenTime('1m', end + 1)).toBe(Date.UTC(2026, 0, 14, 10, 1));
    expect(klineCloseTime('1m', Date.UTC(2026, 0, 14, 10, 0))).toBe(end);
  });

  it('opens 1M on the first of the calendar month, UTC, with months of 28 to 31 days', () => {
    expect(klineOpenTime('1M', Date.UTC(2026, 1, 28, 23, 59, 59, 999))).toBe(Date.UTC(2026, 1, 1));
    expect(klineOpenTime('1M', Date.UTC(2026, 2, 1))).toBe(Date.UTC(2026, 2, 1));
    expect(klineCloseTime('1M', Date.UTC(2026, 1, 1))).toBe(Date.UTC(2026, 2, 1) - 1);
    expect(klineCloseTime('1M', Date.UTC(2028, 1, 1))).toBe(Date.UTC(2028, 1, 29, 23, 59, 59, 999));
    expect(klineOpenTime('1M', Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe(Date.UTC(2026, 11, 1));
    expect(klineCloseTime('1M', Date.UTC(2026, 11, 1))).toBe(Date.UTC(2027, 0, 1) - 1);
  });

  it('opens 1w on Monday 00:00 UTC', () => {
    expect(klineOpenTime('1w', t0)).toBe(Date.UTC(2026, 0, 12));
    expect(klineOpenTime('1w', Date.UTC(2026, 0, 18, 23, 59, 59, 999))).toBe(Date.UTC(2026, 0, 12));
    expect(klineOpenTime('1w', Date.UTC(2026, 0, 19))).toBe(Date.UTC(2026, 0, 19));
    expect(new Date(klineOpenTime('1w', 0)).getUTCDay()).toBe(1);
    expect(klineCloseTime('1w', Date.UTC(2026, 0, 12))).toBe(Date.UTC(2026, 0, 19) - 1);
  });

  it('aligns 4h, 8h and 1d on the epoch (00:00 UTC)', () => {
    expect(klineOpenTime('4h', Date.UTC(2026, 0, 14, 11, 30))).toBe(Date.UTC(2026, 0, 14, 8));
    expect(klineOpenTime('8h', Date.UTC(2026, 0, 14, 23, 59))).toBe(Date.UTC(2026, 0, 14, 16));
    expect(klineOpenTime('1d', Date.UTC(2026, 0, 14, 23, 59, 59, 999))).toBe(Date.UTC(2026, 0, 14));
  });
});

describe('the fold', () => {
  it('builds candles with OHLC, volumes, counts and taker-buy volumes, split at the minute edge', () => {
    const { fold, events, btc } = setup();
    const minuteEnd = Date.UTC(2026, 0, 14, 10, 0, 59, 999);
    fold.apply(0, events.trade('BTCUSDT', minuteEnd - 1000, '100', '1', 'BUY'));
    fold.apply(0, events.trade('BTCUSDT', minuteEnd - 500, '105.5', '0.5', 'SELL'));
    fold.apply(0, events.trade('BTCUSDT', minuteEnd, '99', '2', 'BUY'));
    fold.apply(0, events.trade('BTCUSDT', minuteEnd + 1, '101', '0.1', 'SELL'));
    const rows = btc
      .series('1m')
      .query({ limit: 10 })!
      .map((k) => klineRow(btc, '1m', k));
    expect(rows).toEqual([
      [
        Date.UTC(2026, 0, 14, 10, 0),
        '100.00',
        '105.50',
        '99.00',
        '99.00',
        '3.50000',
        minuteEnd,
        '350.7500000',
        3,
        '3.00000',
        '298.0000000',
      ],
      [
        Date.UTC(2026, 0, 14, 10, 1),
        '101.00',
        '101.00',
        '101.00',
        '101.00',
        '0.10000',
        minuteEnd + 60_000,
        '10.1000000',
        1,
        '0.00000',
        '0.0000000',
      ],
    ]);
    const day = btc.series('1d').query({ limit: 10 })!;
    expect(day).toHaveLength(1);
    expect(klineRow(btc, '1d', day[0]!)[5]).toBe('3.60000');
  });

  it('clamps event time to be non-decreasing per partition: a late ts lands in the current bucket', () => {
    const { fold, events, btc } = setup();
    fold.apply(0, events.trade('BTCUSDT', t0 + 60_000, '100', '1'));
    fold.apply(0, events.trade('BTCUSDT', t0, '101', '1'));
    expect(btc.trades.last(2).map((t) => t.time)).toEqual([t0 + 60_000, t0 + 60_000]);
    expect(btc.series('1m').query({ limit: 5 })).toHaveLength(1);
  });

  it('answers klines by startTime, endTime and limit, ascending', () => {
    const { fold, events, btc } = setup();
    for (let i = 0; i < 10; i++) fold.apply(0, events.trade('BTCUSDT', t0 + i * 60_000, String(100 + i), '1'));
    const opens = (q: { startTime?: number; endTime?: number; limit: number }) =>
      btc
        .series('1m')
        .query(q)!
        .map((k) => (k.openTime - t0) / 60_000);
    expect(opens({ limit: 3 })).toEqual([7, 8, 9]);
    expect(opens({ startTime: t0 + 120_000, limit: 3 })).toEqual([2, 3, 4]);
    expect(opens({ endTime: t0 + 120_000, limit: 2 })).toEqual([1, 2]);
    expect(opens({ startTime: t0 + 60_000, endTime: t0 + 5 * 60_000, limit: 100 })).toEqual([1, 2, 3, 4, 5]);
  });

  it('rolls the 24 h ticker off at event time, also when only clock ticks arrive', () => {
    const { fold, events, btc } = setup();
    fold.apply(0, events.trade('BTCUSDT', t0, '100', '1'));
    fold.apply(0, events.trade('BTCUSDT', t0 + HOUR, '120', '2'));
    fold.apply(0, events.trade('BTCUSDT', t0 + 2 * HOUR, '90', '1', 'SELL'));
    expect(ticker24h(btc)).toMatchObject({
      openPrice: '100.00',
      highPrice: '120.00',
      lowPrice: '90.00',
      lastPrice: '90.00',
      volume: '4.00000',
      time: t0 + 2 * HOUR,
    });

    // The first trade is still in the window at exactly +24 h − 1 ms, and gone at +24 h.
    fold.apply(0, events.tick('ETHBTC', t0 + DAY - 1));
    expect(ticker24h(btc)).toMatchObject({ openPrice: '100.00', volume: '4.00000' });
    const changes: MarketChange[] = [];
    fold.apply(0, events.tick('ETHBTC', t0 + DAY), changes);
    expect(changes).toEqual([{ kind: 'ticker', symbol: 'BTCUSDT' }]);
    expect(ticker24h(btc)).toMatchObject({
      openPrice: '120.00',
      highPrice: '120.00',
      lowPrice: '90.00',
      volume: '3.00000',
      time: t0 + DAY,
    });

    fold.apply(0, events.tick('BTCUSDT', t0 + 2 * HOUR + DAY));
    // Empty window: no volume; open, high and low are the last price.
    expect(ticker24h(btc)).toMatchObject({
      openPrice: '90.00',
      highPrice: '90.00',
      lowPrice: '90.00',
      lastPrice: '90.00',
      volume: '0.00000',
    });
  });

  it('keeps the L2 book sorted, removes zero levels and skips updates it already holds', () => {
    const { fold, events, btc } = setup();
    fold.apply(
      0,
      events.book(
        'BTCUSDT',
        t0,
        [
          ['100', '1'],
          ['102', '2'],
          ['101', '3'],
        ],
        [
          ['105', '1'],
          ['103.5', '2'],
        ],
      ),
    );
    fold.apply(0, events.book('BTCUSDT', t0 + 1, [['102', '0']], [['104', '0.5']]));
    expect(JSON.parse(depthJson(btc, 100))).toEqual({
      time: t0 + 1,
      lastUpdateId: 7,
      bids: [
        ['101.00', '3.00000'],
        ['100.00', '1.00000'],
      ],
      asks: [
        ['103.50', '2.00000'],
        ['104.00', '0.50000'],
        ['105.00', '1.00000'],
      ],
    });
    const stale = events.book('BTCUSDT', t0 + 2, [], []);
    fold.apply(0, { ...stale, payload: { ...stale.payload, updateIdFirst: 6, updateIdLast: 7, bids: [['1', '1']] } });
    expect(btc.book.bids.size).toBe(2);
  });

  it.each([5, 10, 20, 50, 100, 500, 1000])(
    'answers depth limit %i with at most that many levels per side, best first',
    (limit) => {
      const { fold, events, btc } = setup();
      const bids: [string, string][] = Array.from({ length: 1200 }, (_, i) => [String(10_000 - i), '1']);
      const asks: [string, string][] = Array.from({ length: 1200 }, (_, i) => [String(20_000 + i), '1']);
      fold.apply(0, events.book('BTCUSDT', t0, bids.reverse(), asks.reverse()));
      const depth = JSON.parse(depthJson(btc, limit)) as { bids: string[][]; asks: string[][] };
      expect(depth.bids).toHaveLength(limit);
      expect(depth.asks).toHaveLength(limit);
      expect(depth.bids[0]).toEqual(['10000.00', '1.00000']);
      expect(depth.asks[0]).toEqual(['20000.00', '1.00000']);
      expect(depth.bids[limit - 1]![0]).toBe(`${10_000 - limit + 1}.00`);
    },
  );

  it('cuts merged depth at 300 ms event-time boundaries: changes inside a window show after it closes', () => {
    const { fold, events, btc } = setup();
    const w = Math.ceil(t0 / 300) * 300;
    fold.apply(0, events.book('BTCUSDT', w + 10, [['100', '1']], []));
    fold.apply(0, events.book('BTCUSDT', w + 299, [['101', '1']], []));
    expect(JSON.parse(mergedDepthJson(btc, 40)).bids).toEqual([]);
    const changes: MarketChange[] = [];
    fold.apply(0, events.tick('BTCUSDT', w + 300), changes);
    expect(changes).toEqual([{ kind: 'mergedDepth', symbol: 'BTCUSDT' }]);
    expect(JSON.parse(mergedDepthJson(btc, 40))).toEqual({
      time: w + 299,
      lastUpdateId: 2,
      bids: [
        ['101.00', '1.00000'],
        ['100.00', '1.00000'],
      ],
      asks: [],
    });
  });

  it('gives the same answers from the same events (two folds, byte for byte)', () => {
    const a = setup();
    const b = new MarketFold(testSymbols, onePartition);
    const stream = [
      a.events.book('BTCUSDT', t0, [['100', '1']], [['101', '1']]),
      a.events.trade('BTCUSDT', t0 + 5, '101', '0.5'),
      a.events.tick('BTCUSDT', t0 + 1000),
    ];
    for (const e of stream) {
      a.fold.apply(0, e);
      b.apply(0, e);
    }
    const bBtc = b.symbols.get('BTCUSDT')!;
    expect(depthJson(bBtc, 100)).toBe(depthJson(a.btc, 100));
    expect(mergedDepthJson(bBtc, 40)).toBe(mergedDepthJson(a.btc, 40));
    expect(JSON.stringify(ticker24h(bBtc))).toBe(JSON.stringify(ticker24h(a.btc)));
  });
});
