import { randomUUID } from 'node:crypto';
import {
  type HistoryBatch,
  type Kline,
  MarketFold,
  MarketHistoryStore,
  MEMORY_DEPTH,
  openMarketDataSource,
  parseKlineRetention,
} from '@exchange/market-data';
import type { DataSource } from 'typeorm';
import { onePartition, testSymbols } from '../../../libs/market-data/src/testing/order-event-fixtures';
import { realServiceAddress } from '../../../test/support/real-services';
import { historyDigest } from './market-history-digest';

const url = realServiceAddress('DATABASE_URL', 'the market-data replay digest on PostgreSQL');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

(url ? describe : describe.skip)('market history digest under kline retention', () => {
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
    const liveDigest = await historyDigest(source, live.schema, 1, { symbols: ['BTCUSDT'], intervals: retention });
    const rebuiltDigest = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(liveDigest.floors).toEqual([{ symbol: 'BTCUSDT', interval: '1m', floor: now - DAY }]);
    expect(rebuiltDigest.hash).toBe(liveDigest.hash);
    expect(rebuiltDigest.rows.klines).toBe(1440);
    expect(liveDigest.rows.klines).toBeGreaterThan(MEMORY_DEPTH);

    // Without the floors the rebuilt day past retention counts; a candle changed within retention is seen.
    const unfloored = await historyDigest(source, rebuilt.schema, 1, { floors: [] });
    expect(unfloored.hash).not.toBe(liveDigest.hash);
    await source.query(`UPDATE "${rebuilt.schema}".klines SET trades = 2 WHERE open_time = $1`, [now - MINUTE]);
    const changed = await historyDigest(source, rebuilt.schema, 1, { floors: liveDigest.floors });
    expect(changed.hash).not.toBe(liveDigest.hash);
  });
});
