import { klineIntervals } from './kline-intervals';
import { MarketFold } from './market-fold';
import { marketStateHash } from './market-state-hash';
import { restoreCut, restoreHistory, takeCut } from './partition-cut';
import { MEMORY_DEPTH } from './symbol-market';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import type { OrderEvent } from '@exchange/contracts';

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);

function foldOf(events: readonly OrderEvent[]): MarketFold {
  const fold = new MarketFold(testSymbols, onePartition);
  for (const e of events) fold.apply(0, e);
  return fold;
}

/** A session on both symbols: books, trades over minute and hour edges, clock ticks. */
function session(): OrderEvent[] {
  const f = new OrderEventFactory();
  return [
    f.book(
      'BTCUSDT',
      t0,
      [
        ['100', '1'],
        ['99', '2'],
      ],
      [['101', '1']],
    ),
    f.trade('BTCUSDT', t0 + 10, '101', '0.5'),
    f.book('BTCUSDT', t0 + 10, [], [['101', '0.5']]),
    f.trade('ETHBTC', t0 + 59_990, '0.05', '2', 'SELL'),
    f.trade('BTCUSDT', t0 + 60_500, '100', '1', 'SELL'),
    f.book('BTCUSDT', t0 + 60_500, [['100', '0']], []),
    f.tick('ETHBTC', t0 + HOUR),
    f.trade('BTCUSDT', t0 + HOUR + 1, '102', '0.25'),
  ];
}

describe('marketStateHash', () => {
  it('is the same for two folds of the same events, whatever else each process counted', () => {
    const a = foldOf(session());
    const b = foldOf(session());
    b.symbols.get('BTCUSDT')!.bookVersion += 5;
    b.version += 1;
    expect(marketStateHash(b)).toBe(marketStateHash(a));
    expect(marketStateHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with a trade, a book level and an event that only moves time', () => {
    const events = session();
    const base = marketStateHash(foldOf(events));
    const f = new OrderEventFactory();
    const trade = f.trade('ETHBTC', t0 + 2 * HOUR, '0.06', '1');
    expect(marketStateHash(foldOf([...events, { ...trade, payload: { ...trade.payload, tradeId: '99' } }]))).not.toBe(
      base,
    );
    const book = f.book('BTCUSDT', t0 + HOUR + 1, [['98', '3']], []);
    expect(
      marketStateHash(
        foldOf([...events, { ...book, payload: { ...book.payload, updateIdFirst: 50, updateIdLast: 50 } }]),
      ),
    ).not.toBe(base);
    // A day later the 24 h ticker is empty: the events decided that, no clock did.
    expect(marketStateHash(foldOf([...events, f.tick('BTCUSDT', t0 + 26 * HOUR)]))).not.toBe(base);
  });

  it('is the same for a fold started from a stored cut and history, then brought to the same offset', () => {
    const events = session();
    const live = foldOf(events);
    // The cut is taken part-way; the history as the store would hold it at the end; the rest is read again.
    const cutAt = 3;
    const taken = takeCut(foldOf(events.slice(0, cutAt)), 0, cutAt);
    // As PostgreSQL's jsonb gives it back: the same values, keys in another order.
    const cut = {
      ...taken,
      symbols: taken.symbols.map((s) => ({
        ...s,
        merged: { asks: s.merged.asks, bids: s.merged.bids, lastUpdateId: s.merged.lastUpdateId, time: s.merged.time },
      })),
    };
    const started = new MarketFold(testSymbols, onePartition);
    restoreCut(started, cut);
    for (const [symbol, market] of live.symbols) {
      restoreHistory(started.symbols.get(symbol)!, {
        recentTrades: market.trades.last(MEMORY_DEPTH),
        // Every minute of the session is inside the 24 h window at its end.
        windowMinutes: market.series('1m').query({ limit: MEMORY_DEPTH })!,
        klines: new Map(
          klineIntervals.map((i) => [i, { klines: market.series(i).query({ limit: MEMORY_DEPTH })!, holdsAll: true }]),
        ),
        lastTradeId: market.lastTradeId,
      });
    }
    for (const e of events.slice(cutAt)) started.apply(0, e);
    expect(marketStateHash(started)).toBe(marketStateHash(live));
    expect(started.symbols.get('BTCUSDT')!.tradeVersion).not.toBe(live.symbols.get('BTCUSDT')!.tradeVersion);
  });
});
