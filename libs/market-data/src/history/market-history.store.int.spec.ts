import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { realServiceAddress } from '../../../../test/support/real-services';
import {
  type Kline,
  type KlineInterval,
  MarketFold,
  MEMORY_DEPTH,
  parseKlineRetention,
  type PublicTrade,
  type SymbolMarket,
} from '../domain';
import { onePartition, testSymbols } from '../testing/order-event-fixtures';
import { type HistoryBatch, MarketHistoryStore } from './market-history.store';
import { openMarketDataSource } from './open-market-data-source';

const url = realServiceAddress('DATABASE_URL', 'market data history retention on PostgreSQL');
const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

interface FreshSchema {
  schema: string;
  dataSource: DataSource;
  store: MarketHistoryStore;
  btc: SymbolMarket;
  eth: SymbolMarket;
}

/** A store on a schema of its own, dropped after `run`. */
async function inFreshSchema(run: (fresh: FreshSchema) => Promise<void>): Promise<void> {
  const schema = `md_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const dataSource = await openMarketDataSource(url!, schema);
  try {
    const fold = new MarketFold(testSymbols, onePartition);
    await run({
      schema,
      dataSource,
      store: new MarketHistoryStore(dataSource, schema),
      btc: fold.symbols.get('BTCUSDT')!,
      eth: fold.symbols.get('ETHBTC')!,
    });
  } finally {
    await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource.destroy();
  }
}

(url ? describe : describe.skip)('market history store on PostgreSQL', () => {
  it('prunes candles past the retention of their interval in bounded statements, keeps each series its newest 1,000 and the intervals kept forever', async () => {
    await inFreshSchema(async ({ schema, dataSource, store, btc, eth }) => {
      const now = 1_000 * DAY;
      const candle = (market: SymbolMarket, interval: KlineInterval, openTime: number) => {
        const one = market.scale.price('1');
        const kline: Kline = {
          openTime,
          open: one,
          high: one,
          low: one,
          close: one,
          volume: market.scale.qty('1'),
          quoteVolume: 0n,
          trades: 1,
          takerBuyVolume: 0n,
          takerBuyQuoteVolume: 0n,
        };
        return { market, interval, kline };
      };
      // BTCUSDT 1m: three days of candles, one a minute (4,320); 1d: 2,000 days; ETHBTC 1m: 1,200 a day apart.
      const klines = [
        ...Array.from({ length: 3 * 1440 }, (_, i) => candle(btc, '1m', now - 3 * DAY + i * MINUTE)),
        ...Array.from({ length: 2000 }, (_, i) => candle(btc, '1d', now - 2000 * DAY + i * DAY)),
        ...Array.from({ length: 1200 }, (_, i) => candle(eth, '1m', now - 1200 * DAY + i * DAY)),
      ];
      await store.commitBatch({
        partition: 0,
        expectedOffset: 0,
        nextOffset: 1,
        eventTime: now,
        trades: [],
        klines,
      });
      const openTimes = async (symbol: string, interval: KlineInterval): Promise<number[]> =>
        (
          (await dataSource.query(
            `SELECT open_time FROM "${schema}".klines WHERE symbol = $1 AND interval = $2 ORDER BY open_time`,
            [symbol, interval],
          )) as { open_time: string }[]
        ).map((r) => Number(r.open_time));
      const retention = parseKlineRetention('1m=1');
      const symbols = ['BTCUSDT', 'ETHBTC'];

      // 200 rows per series and statement, 3 statements: a backlog goes over several calls.
      expect(await store.pruneKlines(symbols, retention, now, { rows: 200, statements: 3 })).toBe(600 + 200);
      expect(await store.pruneKlines(symbols, retention, now, { rows: 1000, statements: 10 })).toBe(2 * 1440 - 600);

      // BTCUSDT 1m: the last day (1,440 candles, more than 1,000); ETHBTC 1m: its newest 1,000, however old.
      expect(await openTimes('BTCUSDT', '1m')).toEqual(Array.from({ length: 1440 }, (_, i) => now - DAY + i * MINUTE));
      expect(await openTimes('ETHBTC', '1m')).toEqual(
        Array.from({ length: MEMORY_DEPTH }, (_, i) => now - 1000 * DAY + i * DAY),
      );
      // 1d is not in the retention: kept forever.
      expect(await openTimes('BTCUSDT', '1d')).toHaveLength(2000);
      expect(await store.pruneKlines(symbols, retention, now, { rows: 1000, statements: 10 })).toBe(0);
    });
  });

  it('deletes trades past retention, keeps each symbol its newest 1,000 whatever their age, and leaves other symbols alone', async () => {
    await inFreshSchema(async ({ schema, dataSource, store, btc, eth }) => {
      const trade = (
        market: SymbolMarket,
        tradeId: number,
        time: number,
      ): { market: SymbolMarket; trade: PublicTrade } => ({
        market,
        trade: { tradeId, time, price: market.scale.price('1'), qty: market.scale.qty('1'), isBuyerMaker: false },
      });
      const now = 1_000 * HOUR;
      const batch = (offset: number, trades: HistoryBatch['trades'], prune?: HistoryBatch['prune']): HistoryBatch => ({
        partition: 0,
        expectedOffset: offset,
        nextOffset: offset + 1,
        eventTime: now,
        trades,
        klines: [],
        prune,
      });
      // BTCUSDT: 3,000 old trades, then 500 recent ones; ETHBTC: 1,200 old ones, in a symbol the prune does not name.
      const btcTrades = Array.from({ length: 3500 }, (_, i) =>
        trade(btc, i + 1, i < 3000 ? now - 200 * HOUR + i : now - HOUR + i),
      );
      const ethTrades = Array.from({ length: 1200 }, (_, i) => trade(eth, i + 1, now - 200 * HOUR + i));
      await store.commitBatch(batch(0, [...btcTrades, ...ethTrades]));
      await store.commitBatch(batch(1, [], { symbols: ['BTCUSDT'], before: now - 168 * HOUR }));

      const kept = async (symbol: string): Promise<number[]> =>
        (
          (await dataSource.query(`SELECT trade_id FROM "${schema}".trades WHERE symbol = $1 ORDER BY trade_id`, [
            symbol,
          ])) as { trade_id: string }[]
        ).map((r) => Number(r.trade_id));
      const btcKept = await kept('BTCUSDT');
      // The 500 recent ones and the newest 500 old ones: 1,000 in all (MEMORY_DEPTH), ids 2501..3500.
      expect(btcKept).toHaveLength(MEMORY_DEPTH);
      expect(btcKept[0]).toBe(2501);
      expect(btcKept[btcKept.length - 1]).toBe(3500);
      expect(await kept('ETHBTC')).toHaveLength(1200);

      // Pruning again changes nothing: the newest 1,000 stay, however old they get.
      await store.commitBatch(batch(2, [], { symbols: ['BTCUSDT', 'ETHBTC'], before: now }));
      expect(await kept('BTCUSDT')).toEqual(btcKept);
      expect(await kept('ETHBTC')).toEqual(Array.from({ length: MEMORY_DEPTH }, (_, i) => 201 + i));
    });
  });
});
