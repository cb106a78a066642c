import { MarketFold, type MarketChange } from '../domain';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import { batchFrames } from './stream-frames';

const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);

describe('frames of a folded batch', () => {
  it('merges the batch book changes into one diff spanning its update ids, the last quantity of a level winning', () => {
    const fold = new MarketFold(testSymbols, onePartition);
    const events = new OrderEventFactory();
    const changes: MarketChange[] = [];
    fold.apply(0, events.book('BTCUSDT', t0, [['100', '1']], [['101', '2']]), changes);
    fold.apply(0, events.book('BTCUSDT', t0 + 1, [['100', '0.5']], []), changes);
    fold.apply(0, events.trade('BTCUSDT', t0 + 1, '101', '0.5'), changes);
    fold.apply(0, events.trade('BTCUSDT', t0 + 2, '101', '0.25'), changes);
    const frames = batchFrames(changes, (s) => fold.symbols.get(s)!);
    expect(frames.get('BTCUSDT|diffDepth')!.data).toEqual([
      { s: 'BTCUSDT', t: t0 + 1, U: 1, u: 3, b: [['100.00', '0.50000']], a: [['101.00', '2.00000']] },
    ]);
    expect(frames.get('BTCUSDT|trade')!.data.map((t) => (t as { q: string }).q)).toEqual(['0.50000', '0.25000']);
    expect(frames.get('BTCUSDT|kline_1m')!.data).toEqual([
      expect.objectContaining({ o: '101.00', c: '101.00', v: '0.75000', n: 2 }),
    ]);
    expect(frames.get('BTCUSDT|realtimes')!.data).toHaveLength(1);
    expect(frames.has('ETHBTC|trade')).toBe(false);
  });
});
