// Fills an embedded exchange's DATA_DIR with order.events before it starts: deep BTCUSDT and
// ETHBTC books and 1,500 one-minute-apart trades each, so depth, tickers and a 1000-candle
// klines query have something to serve. These events are market data's input only (no engine
// state matches them); ETHUSDT is left empty for the fan-out run, which trades it for real.
import { join } from 'node:path';
import { allTopics, type OrderEvent, Topics } from '../../libs/contracts/src';
import { OrderEventFactory } from '../../libs/market-data/src/testing/order-event-fixtures';
import { EmbeddedEventLog, type OutgoingRecord } from '../../libs/messaging/src';

const TRADES = 1500;
const LEVELS = 500;

interface SeedSymbol {
  symbol: string;
  mid: number;
  tick: number;
  priceDecimals: number;
  qty: string;
}

const seeds: SeedSymbol[] = [
  { symbol: 'BTCUSDT', mid: 60_000, tick: 0.5, priceDecimals: 2, qty: '0.01' },
  { symbol: 'ETHBTC', mid: 0.05, tick: 0.00001, priceDecimals: 5, qty: '0.1' },
];

export async function seedMarketJournal(dataDir: string, now = Date.now()): Promise<number> {
  const log = await EmbeddedEventLog.open({ dir: join(dataDir, 'event-log'), fsync: 'never' });
  await log.createTopics(allTopics);
  const records: OutgoingRecord[] = [];
  const push = (event: OrderEvent): void =>
    void records.push({ topic: Topics.orderEvents.name, key: event.payload.symbol, value: JSON.stringify(event) });
  const events = new OrderEventFactory();
  for (const s of seeds) {
    for (let i = 0; i < TRADES; i++)
      push(
        events.trade(
          s.symbol,
          now - (TRADES - i) * 60_000,
          price(s, (i % 40) - 20),
          s.qty,
          i % 2 === 0 ? 'BUY' : 'SELL',
        ),
      );
    const bids = Array.from({ length: LEVELS }, (_, i) => [price(s, -1 - i), s.qty] as [string, string]);
    const asks = Array.from({ length: LEVELS }, (_, i) => [price(s, 1 + i), s.qty] as [string, string]);
    push(events.book(s.symbol, now, bids, asks));
  }
  await log.publish(records);
  await log.close();
  return records.length;
}

function price(s: SeedSymbol, offset: number): string {
  return (s.mid + offset * s.tick).toFixed(s.priceDecimals);
}
