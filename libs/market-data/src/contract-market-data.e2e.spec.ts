import 'reflect-metadata';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@exchange/bootstrap';
import { type OrderEvent, Topics } from '@exchange/contracts';
import { ManualClock } from '@exchange/platform';
import { WebSocket } from 'ws';
import { http } from '../../../test/support/http-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import { klineIntervals } from './domain';
import * as s from './http/quote.schemas';
import { MarketDataModule } from './market-data.module';
import { brokerInfoSchema } from './public/general.schemas';
import { MarketReader } from './reading/market-reader';
import { OrderEventFactory } from './testing/order-event-fixtures';

type Json = Record<string, unknown>;

/** The shipped markets, with ETH-SWAP-USDT priced from an operator-fed index (indexSource external). */
function marketsFile(): string {
  const config = JSON.parse(readFileSync('config/markets.json', 'utf8')) as { contracts: Json[] };
  config.contracts = config.contracts.map((c) =>
    c.symbol === 'ETH-SWAP-USDT' ? { ...c, index: 'ETH-EXT', indexSource: 'external' } : c,
  );
  const path = join(mkdtempSync(join(tmpdir(), 'contract-markets-')), 'markets.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/**
 * Contract market data on the embedded exchange (or CI's Kafka): order.events records of a
 * contract book, published here as the engine writes them, and the spot book of its index; the
 * contract family's REST paths, brokerInfo, the index and mark prices (spot mid and operator-fed),
 * funding rates, the public stream's markPrice topic, and a second replica serving the same bytes.
 */
describe('contract market data', () => {
  const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);
  const clock = new ManualClock(t0);
  const events = new OrderEventFactory();
  let exchange: TestExchange;
  const get = <T = Json>(path: string, baseUrl = exchange.baseUrl) => http<T>(baseUrl, 'GET', path);
  const reader = () => exchange.app.get(MarketReader);

  /** Publishes engine-shaped records and waits until market data has folded them. */
  async function publish(...records: OrderEvent[]): Promise<void> {
    const log = exchange.infrastructure.eventLog;
    await log.publish(
      records.map((e) => ({ topic: Topics.orderEvents.name, key: e.payload.symbol, value: JSON.stringify(e) })),
    );
    const end = await log.endOffsets(Topics.orderEvents.name);
    await waitFor(
      () => end.every((o, p) => (reader().offsets[p] ?? 0) >= o),
      'market data at the end of order.events',
      30_000,
    );
  }

  const contractsOf = async (baseUrl?: string) =>
    s.contractSummariesSchema.parse((await get('/openapi/v1/contracts', baseUrl)).body);
  const btc = async () => (await contractsOf()).find((c) => c.symbol === 'BTC-SWAP-USDT')!;

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: {
        MARKETS_FILE: marketsFile(),
        ENGINE_CLOCK_TICK_MS: '0',
        CONTRACT_FUNDING_INTERVAL_MS: '60000',
        RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000',
      },
    });
    // Ready: caught up, and the prices decider is deciding (so every event below is priced as it comes).
    await waitFor(async () => (await get('/health/ready')).status === 200, 'market data and its prices ready', 60_000);
    // The index: BTCUSDT's mid, 50000. The contract's mid 50030: a basis of 30.
    await publish(events.book('BTCUSDT', t0, [['49990', '1']], [['50010', '1']]));
    await publish(
      events.book(
        'BTC-SWAP-USDT',
        t0,
        [
          ['50020', '40'],
          ['50010.5', '7'],
        ],
        [['50040', '25']],
      ),
    );
    clock.set(t0 + 1000);
    await publish(
      events.trade('BTC-SWAP-USDT', t0 + 1000, '50040', '5'),
      events.book('BTC-SWAP-USDT', t0 + 1000, [], [['50040', '20']]),
    );
  }, 120_000);
  afterAll(async () => exchange?.close());

  it('serves the contract book, trades and klines on the contract paths, in contracts and USDT', async () => {
    expect(
      s.depthSchema.parse((await get('/openapi/quote/v1/contract/depth?symbol=BTC-SWAP-USDT&limit=1')).body),
    ).toEqual({
      time: t0 + 1000,
      lastUpdateId: 4,
      bids: [['50020.0', '40']],
      asks: [['50040.0', '20']],
    });
    expect((await get('/openapi/quote/v1/contract/trades?symbol=BTC-SWAP-USDT')).body).toEqual([
      { price: '50040.0', qty: '5', time: t0 + 1000, isBuyerMaker: false },
    ]);
    // 50040 × 5 contracts × 0.001 BTC = 250.2 USDT.
    const klines = await get<unknown[][]>(
      `/openapi/quote/v1/contract/klines?symbol=BTC-SWAP-USDT&interval=1m&to=${t0 + 60_000}`,
    );
    expect(klines.body).toEqual([
      [t0, '50040.0', '50040.0', '50040.0', '50040.0', '5', t0 + 59_999, '250.2000', 1, '5', '250.2000'],
    ]);
    expect(
      (await get('/openapi/quote/v1/contract/klines?symbol=BTC-SWAP-USDT&interval=1m&to=1&endTime=1')).body,
    ).toMatchObject({ code: -1128 });
  });

  it('answers -1121 for a contract on spot paths and a spot symbol on contract paths', async () => {
    for (const path of ['depth', 'trades', 'klines?interval=1m&', 'ticker/24hr?', 'depth/merged?'].map(
      (p) => `/openapi/quote/v1/${p.includes('?') ? p : `${p}?`}symbol=BTC-SWAP-USDT`,
    )) {
      expect({ path, body: (await get(path)).body }).toEqual({
        path,
        body: { code: -1121, msg: "Invalid symbol 'BTC-SWAP-USDT'." },
      });
    }
    for (const path of ['depth', 'trades', 'klines?interval=1m&'].map(
      (p) => `/openapi/quote/v1/contract/${p.includes('?') ? p : `${p}?`}symbol=BTCUSDT`,
    )) {
      const answer = await get(path);
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: { code: -1121, msg: "Invalid symbol 'BTCUSDT'." },
      });
    }
    expect((await get('/openapi/quote/v1/contract/index?symbol=ETHBTC')).body).toMatchObject({ code: -1121 });
    expect((await get<Json[]>('/openapi/quote/v1/ticker/price')).body.map((t) => t.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'ETHBTC',
    ]);
  });

  it('lists the contracts in brokerInfo, narrowed by type', async () => {
    const all = brokerInfoSchema.parse((await get('/openapi/v1/brokerInfo')).body);
    expect(all.contracts?.map((c) => [c.symbol, c.index, c.contractMultiplier])).toEqual([
      ['BTC-SWAP-USDT', 'BTCUSDT', '0.001'],
      ['ETH-SWAP-USDT', 'ETH-EXT', '0.01'],
    ]);
    const contracts = brokerInfoSchema.parse((await get('/openapi/v1/brokerInfo?type=contracts')).body);
    expect([contracts.symbols, contracts.options, contracts.contracts?.length]).toEqual([undefined, undefined, 2]);
    expect(brokerInfoSchema.parse((await get('/openapi/v1/brokerInfo?type=options')).body)).toMatchObject({
      options: [],
    });
  });

  it('prices the index at the spot mid and the mark at the index plus the average basis of each second of event time', async () => {
    // One second sampled (t0 + 1000): basis 30 → mark 50030.
    await waitFor(async () => (await btc()).markPrice === '50030', 'the mark of the first second', 30_000);
    expect((await get('/openapi/quote/v1/contract/index?symbol=BTCUSDT')).body).toEqual({
      index: { BTCUSDT: '50000' },
      markPrice: { 'BTC-SWAP-USDT': '50030' },
    });
    expect(await btc()).toMatchObject({
      lastPrice: '50040.0',
      baseVolume: '5',
      quoteVolume: '250.2000',
      bid: '50020.0',
      ask: '50040.0',
      indexPrice: '50000',
      openInterest: '0',
      nextFundingRateTs: t0 + 60_000,
    });
  });

  it("fixes the funding rate at the interval's end from its average premium", async () => {
    // Every second of the interval at basis 30 on 50000: premium 0.06%, rate 0.06% − 0.05%.
    await publish(events.tick('BTC-SWAP-USDT', t0 + 60_000));
    await waitFor(async () => (await btc()).fundingRate !== '0', 'the first funding rate', 30_000);
    const summary = await btc();
    expect([summary.fundingRate, summary.nextFundingRate, summary.nextFundingRateTs, summary.markPrice]).toEqual([
      '0.0001',
      '0.0001',
      t0 + 120_000,
      '50030',
    ]);
  });

  it('falls back to the last spot trade while a side is empty, and samples the basis once a second', async () => {
    await publish(
      events.trade('BTCUSDT', t0 + 60_500, '49000', '1'),
      events.book('BTCUSDT', t0 + 60_500, [], [['50010', '0']]),
    );
    await waitFor(async () => (await btc()).indexPrice === '49000', 'the index at the last trade', 30_000);
    // No second has passed: the window still holds basis 30 only.
    expect((await btc()).markPrice).toBe('49030');
    // The next second samples 50030 − 49000 = 1030: the window's 60 samples average (59 × 30 + 1030) / 60.
    await publish(events.tick('BTC-SWAP-USDT', t0 + 61_000));
    await waitFor(async () => (await btc()).markPrice === '49046.7', 'the mark of the next second', 30_000);
    await publish(events.book('BTCUSDT', t0 + 61_000, [], [['50010', '1']]));
    await waitFor(async () => (await btc()).markPrice === '50046.7', 'the index back at the mid', 30_000);
  });

  it("takes the operator's external index price, audited, and refuses an index no contract takes from outside", async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const post = (body: Json) =>
      http<Json>(exchange.baseUrl, 'POST', '/admin/v1/index-prices', {
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    clock.set(t0 + 61_500);
    expect((await post({ index: 'ETH-EXT', price: '3000.5' })).body).toEqual({
      index: 'ETH-EXT',
      price: '3000.5',
      contracts: ['ETH-SWAP-USDT'],
      time: t0 + 61_500,
    });
    expect((await post({ index: 'BTCUSDT', price: '1' })).body).toMatchObject({ code: -1121 });
    expect((await post({ index: 'ETH-EXT', price: '0' })).body).toMatchObject({ code: -1130 });
    expect((await http(exchange.baseUrl, 'POST', '/admin/v1/index-prices', { body: '{}' })).status).toBe(401);
    const ethIndex = async () =>
      (await get<{ index: Json }>('/openapi/quote/v1/contract/index?symbol=ETH-SWAP-USDT')).body.index;
    await waitFor(async () => Object.keys(await ethIndex()).length > 0, 'the fed index', 30_000);
    expect((await get('/openapi/quote/v1/contract/index?symbol=ETH-EXT')).body).toEqual({
      index: { 'ETH-EXT': '3000.5' },
      markPrice: { 'ETH-SWAP-USDT': '3000.5' },
    });
  });

  it('streams the mark and index of a contract, and the contract on the existing topics', async () => {
    const ws = new WebSocket(`${exchange.baseUrl.replace('http', 'ws')}/openapi/quote/ws/v1`);
    const frames: Json[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Json));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      for (const topic of ['markPrice', 'index', 'trade', 'depth', 'kline_1m', 'realtimes'])
        ws.send(JSON.stringify({ symbol: 'BTC-SWAP-USDT', topic, event: 'sub' }));
      ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic: 'markPrice', event: 'sub' }));
      await waitFor(() => frames.length >= 7, 'first frames', 10_000);
      expect(frames.find((f) => f.topic === 'markPrice')).toMatchObject({
        symbol: 'BTC-SWAP-USDT',
        f: true,
        data: [{ s: 'BTC-SWAP-USDT', p: '50046.7', i: '50000' }],
      });
      expect(frames.find((f) => f.topic === 'index')).toMatchObject({
        f: true,
        data: [{ s: 'BTCUSDT', sn: 'BTC-SWAP-USDT', p: '50000' }],
      });
      expect(frames.find((f) => f.code !== undefined)).toEqual({
        code: -1121,
        msg: "Invalid symbol 'BTCUSDT' for topic markPrice.",
      });
      // The contract's mid moves to 50070 at 62 s: 63 s samples a basis of 70, and the window of
      // 60 samples averages (57 × 30 + 1030 + 30 + 70) / 60 = 47.33.
      await publish(
        events.book(
          'BTC-SWAP-USDT',
          t0 + 62_000,
          [['50060', '1']],
          [
            ['50040', '0'],
            ['50080', '1'],
          ],
        ),
        events.tick('BTC-SWAP-USDT', t0 + 63_000),
      );
      await waitFor(() => frames.some((f) => f.topic === 'markPrice' && f.f === false), 'a markPrice change', 10_000);
      expect(frames.filter((f) => f.topic === 'markPrice' && f.f === false).at(-1)).toMatchObject({
        data: [{ s: 'BTC-SWAP-USDT', t: t0 + 63_000, p: '50047.3', i: '50000' }],
      });
      await publish(events.trade('BTC-SWAP-USDT', t0 + 63_500, '50070', '1'));
      // The spot topics carry the contract as they carry a spot symbol: in its ticks, in contracts.
      const live = (topic: string) => frames.filter((f) => f.topic === topic && f.f === false).at(-1);
      await waitFor(() => live('trade') !== undefined, 'a contract trade frame', 10_000);
      expect(live('trade')).toMatchObject({
        symbol: 'BTC-SWAP-USDT',
        data: [{ p: '50070.0', q: '1', t: t0 + 63_500 }],
      });
      await waitFor(() => live('kline_1m') !== undefined, 'a contract kline frame', 10_000);
      expect(live('kline_1m')!.data).toMatchObject([{ s: 'BTC-SWAP-USDT', c: '50070.0', i: '1m' }]);
      await waitFor(() => live('realtimes') !== undefined, 'a contract ticker frame', 10_000);
      expect(live('realtimes')!.data).toMatchObject([{ s: 'BTC-SWAP-USDT', c: '50070.0' }]);
      expect(frames.find((f) => f.topic === 'depth' && f.f === true)).toMatchObject({ symbol: 'BTC-SWAP-USDT' });
    } finally {
      ws.close();
    }
  });

  it('gives a second replica the same bytes for every contract answer', async () => {
    const app: NestFastifyApplication = await createApp(exchange.infrastructure, [MarketDataModule]);
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    const second = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    try {
      const paths = [
        '/openapi/v1/contracts',
        '/openapi/quote/v1/contract/index',
        '/openapi/v1/brokerInfo?type=contracts',
      ];
      for (const symbol of ['BTC-SWAP-USDT', 'ETH-SWAP-USDT']) {
        paths.push(
          `/openapi/quote/v1/contract/depth?symbol=${symbol}&limit=0`,
          `/openapi/quote/v1/contract/trades?symbol=${symbol}`,
        );
        for (const interval of klineIntervals)
          paths.push(`/openapi/quote/v1/contract/klines?symbol=${symbol}&interval=${interval}`);
      }
      const answers = (baseUrl: string) =>
        Promise.all(paths.map(async (path) => (await get<unknown>(path, baseUrl)).body));
      // The second replica reads the same topics: once it has caught up, every answer is the same.
      await waitFor(
        async () => JSON.stringify(await answers(second)) === JSON.stringify(await answers(exchange.baseUrl)),
        'the second replica at the same offsets',
        30_000,
      );
      expect(await answers(second)).toEqual(await answers(exchange.baseUrl));
      expect((await contractsOf(second)).find((c) => c.symbol === 'BTC-SWAP-USDT')).toMatchObject({
        fundingRate: '0.0001',
        indexPrice: '50000',
      });
    } finally {
      await app.close();
    }
  });
});
