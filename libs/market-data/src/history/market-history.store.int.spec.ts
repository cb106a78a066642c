import { randomUUID } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { MarketFold, MEMORY_DEPTH, type PublicTrade, type SymbolMarket } from '../domain';
import { onePartition, testSymbols } from '../testing/order-event-fixtures';
import { type HistoryBatch, MarketHistoryStore } from './market-history.store';
import { openMarketDataSource } from './open-market-data-source';

const url = realServiceAddress('DATABASE_URL', 'market data history retention on PostgreSQL');
const HOUR = 3_600_000;

(url ? describe : describe.skip)('market history store on PostgreSQL', () => {
  it('deletes trades past retention, keeps each symbol its newest 1,000 whatever their age, and leaves other symbols alone', async () => {
    const schema = `md_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const dataSource = await openMarketDataSource(url!, schema);
    try {
      const store = new MarketHistoryStore(dataSource, schema);
      const fold = new MarketFold(testSymbols, onePartition);
      const [btc, eth] = [fold.symbols.get('BTCUSDT')!, fold.symbols.get('ETHBTC')!];
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
    } finally {
      await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
      await dataSource.destroy();
    }
  });
});
