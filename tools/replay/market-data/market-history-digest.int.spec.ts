import { randomUUID } from 'node:crypto';
import {
  type HistoryBatch,
  type Kline,
  MarketFold,
  MarketHistoryStore,
  MEMORY_DEPTH,
  openMarketDataSource,
  parseKlineRetention,
  type PublicTrade,
} from '@exchange/market-data';
import type { DataSource } from 'typeorm';
import { onePartition, testSymbols } from '../../../libs/market-data/src/testing/order-event-fixtures';
import { realServiceAddress } from '../../../test/support/real-services';
import { historyDigest } from './market-history-digest';

const url = realServiceAddress('DATABASE_URL', 'the market-data replay digest on PostgreSQL');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const noKlineRetention = parseKlineRetention('');

(url ? describe : describe.skip)('market history digest under kline and trade retention', () => {
  const opened: { schema: string; dataSource: DataSource }[] = [];
  const schemaWith = async (batch: HistoryBatch): Promise<{ schema: string; store: MarketHistoryStore }> => {
    const schema = `md_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const dataSource = await openMarketDataSource(url!, schema);
    opened.push({ schema, dataSource });
    const store = new MarketHistoryStore(dataSource, schema);
    await store.commitBatch(batch);
    return { schema, store };
  };

  afterAll(async () => {
    for (const { schema, dataSource } of opened) {
      await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
      await dataSource.destroy();
    }
  });

  it('compares a live schema whose prunes deleted old candles with a rebuild that holds them all, and still sees a changed candle', async () => {
    const btc = new MarketFold(testSymbols, onePartition).symbols.get('BTCUSDT')!;
    const now = 1_000 * DAY;
    const one = btc.scale.price('1');
    const kline = (openTime: number, trades = 1): Kline => ({
      openTime,
      open: one,
      high: one,
      low: one,
      close: one,
      volume: btc.scale.qty('1'),
      quoteVolume: 0n,
      trades,
      takerBuyVolume: 0n,
      takerBuyQuoteVolume: 0n,
    });
    // Two days of 1m candles: the older day is past a 1-day retention.
    const batch = (klines: Kline[]): HistoryBatch => ({
      partition: 0,
      expectedOffset: 0,
      nextOffset: 10,
      eventTime: now,
      trades: [],
      klines: klines.map((k) => ({ market: btc, interval: '1m' as const, kline: k })),
    });
    const candles = Array.from({ length: 2 * 1440 }, (_, i) => kline(now - 2 * DAY + i * MINUTE));
    const live = await schemaWith(batch(candles));
    const rebuilt = await schemaWith(batch(candles));
    const retention = parseKlineRetention('1m=1');
    expect(await live.store.pruneKlines(['BTCUSDT'], retention, now, { rows: 5000, statements: 1 })).toBe(1440);

    const source = opened[0]!.dataSource;
    const liveDigest = await historyDigest(source, live.schema, 1, {
      symbols: ['BTCUSDT'],
      intervals: retention,
      tradeMs: 0,
    });
    const rebuiltDigest = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(liveDigest.floors.klines).toEqual([{ symbol: 'BTCUSDT', interval: '1m', floor: now - DAY }]);
    expect(rebuiltDigest.hash).toBe(liveDigest.hash);
    expect(rebuiltDigest.rows.klines).toBe(1440);
    expect(liveDigest.rows.klines).toBeGreaterThan(MEMORY_DEPTH);

    // Without the floors the rebuilt day past retention counts; a candle changed within retention is seen.
    const unfloored = await historyDigest(source, rebuilt.schema, 1, { floors: { klines: [], trades: [] } });
    expect(unfloored.hash).not.toBe(liveDigest.hash);
    await source.query(`UPDATE "${rebuilt.schema}".klines SET trades = 2 WHERE open_time = $1`, [now - MINUTE]);
    const changed = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(changed.hash).not.toBe(liveDigest.hash);
  });

  it('compares a live schema whose prunes deleted trades past retention with a rebuild that holds them all, and still sees a changed or missing trade', async () => {
    const btc = new MarketFold(testSymbols, onePartition).symbols.get('BTCUSDT')!;
    const now = 1_000 * DAY;
    const trade = (tradeId: number, time: number): { market: typeof btc; trade: PublicTrade } => ({
      market: btc,
      trade: { tradeId, time, price: btc.scale.price('1'), qty: btc.scale.qty('1'), isBuyerMaker: false },
    });
    // 3,000 trades over two hours: the older 1,500 are past a 1-hour retention and not among the newest 1,000.
    const trades = Array.from({ length: 3000 }, (_, i) => trade(i + 1, now - 2 * HOUR + i * 2400));
    const batch = (offset: number, added: HistoryBatch['trades'], prune?: HistoryBatch['prune']): HistoryBatch => ({
      partition: 0,
      expectedOffset: offset,
      nextOffset: offset + 10,
      eventTime: now,
      trades: added,
      klines: [],
      prune,
    });
    // The live writer prunes with a cut, through the store; the rebuild stores the same batches without pruning.
    const live = await schemaWith(batch(0, trades));
    await live.store.commitBatch(batch(10, [], { symbols: ['BTCUSDT'], before: now - HOUR }));
    const rebuilt = await schemaWith(batch(0, trades));
    await rebuilt.store.commitBatch(batch(10, []));
    const source = opened[0]!.dataSource;
    const count = async (schema: string): Promise<number> =>
      Number((await source.query(`SELECT count(*) AS n FROM "${schema}".trades`))[0].n);
    expect([await count(live.schema), await count(rebuilt.schema)]).toEqual([1500, 3000]);

    const liveDigest = await historyDigest(source, live.schema, 1, {
      symbols: ['BTCUSDT'],
      intervals: noKlineRetention,
      tradeMs: HOUR,
    });
    const rebuiltDigest = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(rebuiltDigest.hash).toBe(liveDigest.hash);
    expect(rebuiltDigest.rows.trades).toBe(1500);
    expect(liveDigest.rows.trades).toBe(1500);
    // The 1,000th newest trade is id 2001: only the age bounds what the prune may have deleted here.
    expect(liveDigest.floors.trades).toEqual([{ symbol: 'BTCUSDT', before: now - HOUR, tradeId: 2001 }]);

    // A trade inside retention changed, or missing, is seen.
    await source.query(`UPDATE "${rebuilt.schema}".trades SET qty = 2 WHERE trade_id = 1501`);
    const changed = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(changed.hash).not.toBe(liveDigest.hash);
    await source.query(`DELETE FROM "${rebuilt.schema}".trades WHERE trade_id = 1501`);
    const missing = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(missing.hash).not.toBe(liveDigest.hash);
    expect(missing.rows.trades).toBe(1499);
  });
});
