import { MarketFold } from './market-fold';
import { marketStateHash } from './market-state-hash';
import { onePartition, OrderEventFactory, testContract, testSymbols } from '../testing/order-event-fixtures';
import { depthJson, klineRow, ticker24h, tradesJson } from '../views/quote-json';

const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);

/** Contract symbols fold like spot ones; their quote amounts count the contract multiplier. */
describe('the fold of a contract symbol', () => {
  function run() {
    const fold = new MarketFold([...testSymbols, testContract], onePartition);
    const events = new OrderEventFactory();
    for (const event of [
      events.book('BTC-SWAP-USDT', t0, [['49990.5', '30']], [['50010', '12']]),
      events.trade('BTC-SWAP-USDT', t0 + 1000, '50010', '10', 'BUY'),
      events.book('BTC-SWAP-USDT', t0 + 1000, [], [['50010', '2']]),
      events.trade('BTC-SWAP-USDT', t0 + 2000, '49990.5', '3', 'SELL'),
      events.tick('BTC-SWAP-USDT', t0 + 3000),
    ]) {
      fold.apply(0, event);
    }
    return fold;
  }

  it('serves the book, trades, candles and the 24 h ticker with contracts as quantity and USDT as quote', () => {
    const fold = run();
    const swap = fold.symbols.get('BTC-SWAP-USDT')!;
    expect(swap.kind).toBe('contract');
    expect(JSON.parse(depthJson(swap, 5))).toEqual({
      time: t0 + 1000,
      lastUpdateId: 3,
      bids: [['49990.5', '30']],
      asks: [['50010.0', '2']],
    });
    expect(JSON.parse(tradesJson(swap, 10))).toEqual([
      { price: '50010.0', qty: '10', time: t0 + 1000, isBuyerMaker: false },
      { price: '49990.5', qty: '3', time: t0 + 2000, isBuyerMaker: true },
    ]);
    // 50010 × 10 × 0.001 + 49990.5 × 3 × 0.001 = 500.1 + 149.9715 USDT; taker buys: the first trade.
    const [row] = swap
      .series('1m')
      .query({ limit: 5 })!
      .map((k) => klineRow(swap, '1m', k));
    expect(row).toEqual([
      t0,
      '50010.0',
      '50010.0',
      '49990.5',
      '49990.5',
      '13',
      t0 + 59_999,
      '650.0715',
      2,
      '10',
      '500.1000',
    ]);
    expect(ticker24h(swap)).toMatchObject({
      lastPrice: '49990.5',
      highPrice: '50010.0',
      lowPrice: '49990.5',
      volume: '13',
      bestAskPrice: '50010.0',
    });
    expect(swap.ticker.stats().quoteVolume).toBe(6500715n);
  });

  it('leaves spot symbols unchanged and gives a replay the same state hash', () => {
    const fold = run();
    expect(fold.symbols.get('BTCUSDT')!.kind).toBe('spot');
    expect(fold.symbols.get('BTCUSDT')!.trades.last(10)).toEqual([]);
    expect(marketStateHash(run())).toBe(marketStateHash(fold));
  });
});
