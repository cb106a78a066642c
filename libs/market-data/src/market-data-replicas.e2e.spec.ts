import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@exchange/bootstrap';
import { randomUUID } from 'node:crypto';
import { type ClockTicked, Topics } from '@exchange/contracts';
import { partitionForKey } from '@exchange/messaging';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import { klineIntervals } from './domain';
import { MarketDataModule } from './market-data.module';
import { MarketReader } from './reading/market-reader';
import { OrderEventFactory } from './testing/order-event-fixtures';

interface Replica {
  app: NestFastifyApplication;
  baseUrl: string;
  reader: MarketReader;
}

/** Every public market answer that is a function of the events folded (health carries the server's clock). */
function answerPaths(startTime: number): string[] {
  const paths: string[] = [];
  for (const symbol of ['BTCUSDT', 'ETHUSDT', 'ETHBTC']) {
    for (const limit of [5, 100, 1000, 0]) paths.push(`/openapi/quote/v1/depth?symbol=${symbol}&limit=${limit}`);
    paths.push(
      `/openapi/quote/v1/depth/merged?symbol=${symbol}`,
      `/openapi/quote/v1/trades?symbol=${symbol}&limit=1000`,
    );
    for (const interval of klineIntervals)
      paths.push(
        `/openapi/quote/v1/klines?symbol=${symbol}&interval=${interval}`,
        `/openapi/quote/v1/klines?symbol=${symbol}&interval=${interval}&startTime=${startTime}&limit=3`,
      );
    for (const kind of ['24hr', 'price', 'bookTicker']) paths.push(`/openapi/quote/v1/ticker/${kind}?symbol=${symbol}`);
    const pair = `${symbol.slice(0, 3)}-${symbol.slice(3)}`.toLowerCase();
    paths.push(`/api/v2/ticker?symbol=${pair}`, `/api/v2/orderbook?symbol=${pair}`, `/api/v2/trades?symbol=${pair}`);
  }
  for (const symbol of ['BTC-SWAP-USDT', 'ETH-SWAP-USDT']) {
    for (const limit of [5, 0]) paths.push(`/openapi/quote/v1/contract/depth?symbol=${symbol}&limit=${limit}`);
    paths.push(`/openapi/quote/v1/contract/trades?symbol=${symbol}&limit=1000`);
    for (const interval of klineIntervals)
      paths.push(
        `/openapi/quote/v1/contract/klines?symbol=${symbol}&interval=${interval}`,
        `/openapi/quote/v1/contract/klines?symbol=${symbol}&interval=${interval}&startTime=${startTime}&limit=3`,
      );
  }
  paths.push('/openapi/v1/contracts', '/openapi/quote/v1/contract/index');
  paths.push(
    '/openapi/quote/v1/ticker/24hr',
    '/openapi/quote/v1/ticker/price',
    '/openapi/quote/v1/ticker/bookTicker',
    '/api/v2/tickers',
    '/api/v2/orderbooks',
    '/api/v2/trades',
    '/api/v2/constants',
  );
  return paths;
}

/**
 * Horizontal scale: a second market-data replica on the same event stream (its own fold, its own
 * reader group, sharing the history writer's group) answers every request byte for byte as the
 * first, and so does a replica started later from the stored cut and history instead of the
 * beginning of the log.
 */
describe('market-data replicas', () => {
  const start = Date.UTC(2026, 2, 31, 23, 58, 0);
  const clock = new ManualClock(start);
  let exchange: TestExchange;
  let maker: TestUser;
  let taker: TestUser;
  let first: Replica;
  const contractEvents = new OrderEventFactory();
  const order = (user: TestUser, query: Record<string, string>) =>
    signedRequest<Record<string, unknown>>(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      timestamp: clock.now(),
      query,
    });

  async function startReplica(): Promise<Replica> {
    const app = await createApp(exchange.infrastructure, [MarketDataModule]);
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    const replica = { app, baseUrl: (await app.getUrl()).replace('[::1]', '127.0.0.1'), reader: app.get(MarketReader) };
    return replica;
  }

  /**
   * Appends a clock tick (at the current time: it moves nothing) to every partition and waits until
   * each replica has folded it: then it has folded everything before it. On Kafka the engine's
   * output ends on transaction markers, offsets no consumer sees, so the tick gives a record to wait for.
   */
  async function atEnd(...replicas: Replica[]): Promise<void> {
    const log = exchange.infrastructure.eventLog;
    const partitions = await log.partitionCount(Topics.orderEvents.name);
    const { markets } = exchange.infrastructure;
    const keys = new Map(
      [...markets.symbols, ...markets.contracts].map((s) => [partitionForKey(s.symbol, partitions), s.symbol]),
    );
    await log.publish(
      [...keys.values()].map((symbol) => {
        const tick: ClockTicked = {
          type: 'ClockTicked',
          v: 1,
          id: `sentinel-${symbol}-${randomUUID()}`,
          ts: clock.now(),
          payload: { symbol },
        };
        return { topic: Topics.orderEvents.name, key: symbol, value: JSON.stringify(tick) };
      }),
    );
    const end = await log.endOffsets(Topics.orderEvents.name);
    await waitFor(
      () => replicas.every((r) => r.reader.isReady && end.every((o, p) => (r.reader.offsets[p] ?? 0) >= o)),
      'replicas at the end of order.events',
      60_000,
    );
  }

  async function expectSameAnswers(a: Replica, b: Replica): Promise<number> {
    let compared = 0;
    // Contract prices come from market.contract-price-state, which each replica reads on its own:
    // once both have read the same records (the deciders publish after folding), the bytes agree.
    const text = async (baseUrl: string, path: string) =>
      JSON.stringify((await http<unknown>(baseUrl, 'GET', path)).body);
    const same = async (path: string) => (await text(a.baseUrl, path)) === (await text(b.baseUrl, path));
    for (const path of ['/openapi/v1/contracts', '/openapi/quote/v1/contract/index'])
      await waitFor(() => same(path), `both replicas' ${path}`, 30_000);
    for (const path of answerPaths(start)) {
      const [x, y] = await Promise.all([http<string>(a.baseUrl, 'GET', path), http<string>(b.baseUrl, 'GET', path)]);
      expect({ path, status: y.status, body: y.body }).toEqual({ path, status: x.status, body: x.body });
      expect(x.status).toBe(200);
      compared += 1;
    }
    return compared;
  }

  /**
   * Contract books and trades as the engine writes them (the engine's contract books are another
   * engineer's slice): their own update and trade ids, at the clock's time.
   */
  async function tradeContracts(round: number): Promise<void> {
    const records = ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'].flatMap((symbol, k) => {
      const price = symbol.startsWith('BTC') ? String(60_000 + round * 10 + k) : `${3000 + round}.25`;
      return [
        contractEvents.book(symbol, clock.now(), [[price, String(10 + round)]], []),
        contractEvents.trade(symbol, clock.now(), price, String(1 + round), round % 2 ? 'SELL' : 'BUY'),
      ];
    });
    await exchange.infrastructure.eventLog.publish(
      records.map((e) => ({ topic: Topics.orderEvents.name, key: e.payload.symbol, value: JSON.stringify(e) })),
    );
  }

  /** Crossing orders at rising times: trades over a minute, an hour, a day and a month boundary. */
  async function trade(round: number): Promise<void> {
    await tradeContracts(round);
    for (let i = 0; i < 6; i++) {
      const price = String(60_000 + ((round * 7 + i * 13) % 50));
      await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price, quantity: '0.01' });
      await order(maker, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: String(3000 - i), quantity: '0.1' });
      clock.advance(17_000);
      await order(taker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '60100', quantity: '0.004' });
      await order(taker, { symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '0.05' });
    }
  }

  beforeAll(async () => {
    // No engine clock: the log only moves with orders, so "at the same offsets" can be waited for. Cuts on every batch.
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: {
        ENGINE_CLOCK_TICK_MS: '0',
        MARKET_DATA_CUT_INTERVAL_MS: '0',
        RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000',
        RATE_LIMIT_ORDERS_PER_SECOND: '1000',
      },
    });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    maker = await createFundedUser(exchange.baseUrl, token, { BTC: '10', USDT: '1000000' });
    taker = await createFundedUser(exchange.baseUrl, token, { USDT: '1000000', ETH: '100' });
    first = { app: exchange.app, baseUrl: exchange.baseUrl, reader: exchange.app.get(MarketReader) };
  }, 60_000);
  afterAll(async () => exchange?.close());

  it('two replicas on the same stream give the same bytes for every answer', async () => {
    await trade(0);
    const second = await startReplica();
    try {
      await trade(1);
      await atEnd(first, second);
      expect(await expectSameAnswers(first, second)).toBeGreaterThan(100);
    } finally {
      await second.app.close();
    }
  }, 120_000);

  it('a replica started later from the stored cut agrees with the one that never stopped', async () => {
    await trade(2);
    await atEnd(first);
    // The history writer of the running replica has stored cuts and history up to (nearly) the end.
    const restarted = await startReplica();
    try {
      await atEnd(first, restarted);
      expect(restarted.reader.startedFrom.some((offset) => offset > 0)).toBe(true);
      await trade(3);
      await atEnd(first, restarted);
      await expectSameAnswers(first, restarted);
      // What was compared is not empty: trades on both sides of the month boundary.
      const months = await http<unknown[][]>(
        restarted.baseUrl,
        'GET',
        '/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1M',
      );
      expect(months.body.map((k) => k[0])).toEqual([Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1)]);
      expect(
        (await http<unknown[]>(restarted.baseUrl, 'GET', '/openapi/quote/v1/trades?symbol=ETHUSDT')).body.length,
      ).toBeGreaterThan(20);
    } finally {
      await restarted.app.close();
    }
  }, 120_000);
});
