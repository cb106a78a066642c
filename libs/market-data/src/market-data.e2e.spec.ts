import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import * as s from './http/quote.schemas';

type Json = Record<string, unknown>;

/**
 * The public market endpoints after real trading on the embedded exchange (or on CI's Kafka):
 * a known sequence of orders, then every endpoint's fields and types, its weight, and every kind
 * of bad parameter.
 */
describe('market data through REST after trading', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 14, 10, 0, 0));
  let exchange: TestExchange;
  let maker: TestUser;
  let taker: TestUser;
  const get = <T = Json>(path: string) => http<T>(exchange.baseUrl, 'GET', path);
  const order = (user: TestUser, query: Record<string, string>) =>
    signedRequest<Json>(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, { timestamp: clock.now(), query });

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: { RATE_LIMIT_WEIGHT_PER_MINUTE: '100000' },
    });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    maker = await createFundedUser(exchange.baseUrl, token, { BTC: '5', USDT: '100000' });
    taker = await createFundedUser(exchange.baseUrl, token, { USDT: '200000' });
    await waitFor(async () => (await get('/api/v2/health')).body.status === 'ok', 'market data ready', 60_000);
    expect(
      (await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '60000', quantity: '1' })).body,
    ).toMatchObject({ status: 'NEW' });
    expect(
      (await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '61000', quantity: '0.5' })).body,
    ).toMatchObject({ status: 'NEW' });
    expect(
      (await order(maker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '59000.5', quantity: '0.2' })).body,
    ).toMatchObject({ status: 'NEW' });
    clock.advance(1500);
    expect(
      (await order(taker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '61000', quantity: '0.4' })).body,
    ).toMatchObject({ status: 'FILLED' });
    await waitFor(
      async () => (await get<unknown[]>('/openapi/quote/v1/trades?symbol=BTCUSDT')).body.length === 1,
      'the trade in market data',
      30_000,
    );
  }, 120_000);
  afterAll(async () => exchange?.close());

  it('answers depth with decimal strings at the symbol precision, lastUpdateId and time', async () => {
    const answer = await get('/openapi/quote/v1/depth?symbol=BTCUSDT');
    expect(answer.status).toBe(200);
    const depth = s.depthSchema.parse(answer.body);
    expect(depth).toMatchObject({
      bids: [['59000.50', '0.20000']],
      asks: [
        ['60000.00', '0.60000'],
        ['61000.00', '0.50000'],
      ],
    });
    expect(depth.lastUpdateId).toBeGreaterThanOrEqual(4);
    expect(depth.time).toBe(clock.now());
    expect(answer.headers.get('x-service-used-weight-1m')).toMatch(/^\d+$/);
    // The cached bytes go out as they are: the same JSON type and an exact length as a string had.
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(answer.body))));
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.depthSchema.parse((await get('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1')).body)).toMatchObject({
      bids: [['59000.50', '0.20000']],
      asks: [['60000.00', '0.60000']],
    });
    expect(s.depthSchema.parse((await get('/openapi/quote/v1/depth?symbol=ETHBTC&limit=0')).body)).toMatchObject({
      bids: [],
      asks: [],
      lastUpdateId: 0,
    });
  });

  it('weighs depth by limit: 1, 5, 10 and 50 for the whole book', async () => {
    const used = async (path: string) => Number((await get(path)).headers.get('x-service-used-weight-1m'));
    const base = await used('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=100');
    expect(await used('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=500')).toBe(base + 5);
    expect(await used('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1000')).toBe(base + 15);
    expect(await used('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=0')).toBe(base + 65);
    expect(await used('/openapi/quote/v1/ticker/24hr')).toBe(base + 105);
  });

  it('answers trades, klines and tickers from the trade', async () => {
    const trades = s.tradesSchema.parse((await get('/openapi/quote/v1/trades?symbol=BTCUSDT')).body);
    expect(trades).toEqual([{ price: '60000.00', qty: '0.40000', time: clock.now(), isBuyerMaker: false }]);
    const minute = Math.floor(clock.now() / 60_000) * 60_000;
    const klines = s.klinesSchema.parse((await get('/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m')).body);
    expect(klines).toEqual([
      [
        minute,
        '60000.00',
        '60000.00',
        '60000.00',
        '60000.00',
        '0.40000',
        minute + 59_999,
        '24000.0000000',
        1,
        '0.40000',
        '24000.0000000',
      ],
    ]);
    const month = s.klinesSchema.parse((await get('/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1M')).body);
    expect(month[0]![0]).toBe(Date.UTC(2026, 0, 1));
    expect(month[0]![6]).toBe(Date.UTC(2026, 1, 1) - 1);
    expect(
      (await get('/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&startTime=' + (minute + 60_000))).body,
    ).toEqual([]);
    expect((await get('/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&endTime=' + minute)).body).toHaveLength(1);

    const ticker = s.ticker24hSchema.parse((await get('/openapi/quote/v1/ticker/24hr?symbol=BTCUSDT')).body);
    expect(ticker).toEqual({
      time: expect.any(Number),
      symbol: 'BTCUSDT',
      bestBidPrice: '59000.50',
      bestAskPrice: '60000.00',
      lastPrice: '60000.00',
      openPrice: '60000.00',
      highPrice: '60000.00',
      lowPrice: '60000.00',
      volume: '0.40000',
    });
    const all = s.ticker24hAnswerSchema.parse((await get('/openapi/quote/v1/ticker/24hr')).body) as unknown[];
    expect(all).toHaveLength(3);
    expect((await get('/openapi/quote/v1/ticker/price?symbol=BTCUSDT')).body).toEqual({ price: '60000.00' });
    expect((await get('/openapi/quote/v1/ticker/price')).body).toEqual([
      { symbol: 'BTCUSDT', price: '60000.00' },
      { symbol: 'ETHUSDT', price: '0.00' },
      { symbol: 'ETHBTC', price: '0.00000' },
    ]);
    expect((await get('/openapi/quote/v1/ticker/bookTicker?symbol=BTCUSDT')).body).toEqual({
      symbol: 'BTCUSDT',
      bidPrice: '59000.50',
      bidQty: '0.20000',
      askPrice: '60000.00',
      askQty: '0.60000',
    });
    expect(s.bookTickerAnswerSchema.parse((await get('/openapi/quote/v1/ticker/bookTicker')).body)).toHaveLength(3);
  });

  it('serves merged depth as of the last 300 ms cut, which the engine clock moves', async () => {
    // The cut before the trade (closed by the trade's own events) still shows the whole first ask.
    expect((await get<{ asks: string[][] }>('/openapi/quote/v1/depth/merged?symbol=BTCUSDT')).body.asks[0]).toEqual([
      '60000.00',
      '1.00000',
    ]);
    clock.advance(1000);
    await waitFor(
      async () =>
        (await get<{ asks: string[][] }>('/openapi/quote/v1/depth/merged?symbol=BTCUSDT')).body.asks[0]?.[1] ===
        '0.60000',
      'the cut after the trade',
      20_000,
    );
    const merged = s.depthSchema.parse((await get('/openapi/quote/v1/depth/merged?symbol=BTCUSDT&limit=1')).body);
    expect(merged).toMatchObject({ bids: [['59000.50', '0.20000']], asks: [['60000.00', '0.60000']] });
  });

  it('answers the v2 family with lowercase hyphenated pairs', async () => {
    expect(s.v2HealthSchema.parse((await get('/api/v2/health')).body).status).toBe('ok');
    const constants = s.v2ConstantsSchema.parse((await get('/api/v2/constants')).body);
    expect(constants.pairs.map((p) => p.trading_pairs)).toEqual(['btc-usdt', 'eth-usdt', 'eth-btc']);
    const ticker = s.v2TickerSchema.parse((await get('/api/v2/ticker?symbol=btc-usdt')).body);
    expect(ticker).toMatchObject({
      trading_pairs: 'btc-usdt',
      last_price: '60000.00',
      lowest_ask: '60000.00',
      highest_bid: '59000.50',
      base_volume: '0.40000',
      quote_volume: '24000.0000000',
      price_change_percent_24h: '0.00',
    });
    expect(s.v2TickersSchema.parse((await get('/api/v2/tickers')).body)).toHaveLength(3);
    expect(s.v2OrderBookSchema.parse((await get('/api/v2/orderbook?symbol=BTC-USDT')).body)).toMatchObject({
      bids: [['59000.50', '0.20000']],
      asks: [
        ['60000.00', '0.60000'],
        ['61000.00', '0.50000'],
      ],
    });
    expect(s.v2OrderBooksSchema.parse((await get('/api/v2/orderbooks')).body)).toHaveLength(3);
    const trades = s.v2TradesAnswerSchema.parse((await get('/api/v2/trades?symbol=btc-usdt')).body);
    expect(trades).toEqual([
      {
        trade_id: '1',
        price: '60000.00',
        base_volume: '0.40000',
        quote_volume: '24000.0000000',
        timestamp: expect.any(Number),
        type: 'buy',
      },
    ]);
    expect(Object.keys(s.v2TradesAnswerSchema.parse((await get('/api/v2/trades')).body))).toEqual([
      'btc-usdt',
      'eth-usdt',
      'eth-btc',
    ]);
  });

  it.each([
    ['/openapi/quote/v1/depth', -1102],
    ['/openapi/quote/v1/depth?symbol=', -1102],
    ['/openapi/quote/v1/depth?symbol=DOGEUSDT', -1121],
    ['/openapi/quote/v1/depth?symbol=btcusdt', -1121],
    ['/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1001', -1130],
    ['/openapi/quote/v1/depth?symbol=BTCUSDT&limit=-1', -1130],
    ['/openapi/quote/v1/depth?symbol=BTCUSDT&limit=ten', -1130],
    ['/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1.5', -1130],
    ['/openapi/quote/v1/depth?symbol=BTCUSDT&symbol=ETHBTC', -1101],
    ['/openapi/quote/v1/depth?symbol=%E0%A4%A', -1100],
    ['/openapi/quote/v1/depth/merged?symbol=BTCUSDT&limit=41', -1130],
    ['/openapi/quote/v1/depth/merged?symbol=BTCUSDT&limit=0', -1130],
    ['/openapi/quote/v1/trades?symbol=BTCUSDT&limit=1001', -1130],
    ['/openapi/quote/v1/trades?symbol=BTCUSDT&limit=0', -1130],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT', -1102],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=3m', -1120],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&startTime=yesterday', -1100],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&endTime=1e12', -1100],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&startTime=99999999999999999', -1100],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&startTime=2000&endTime=1000', -4001],
    ['/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&limit=1001', -1130],
    ['/openapi/quote/v1/klines?interval=1m', -1102],
    ['/openapi/quote/v1/ticker/24hr?symbol=NOPE', -1121],
    ['/openapi/quote/v1/ticker/price?symbol=NOPE', -1121],
    ['/openapi/quote/v1/ticker/bookTicker?symbol=NOPE', -1121],
    ['/api/v2/ticker', -1102],
    ['/api/v2/ticker?symbol=BTCUSDT', -1121],
    ['/api/v2/orderbook?symbol=doge-usdt', -1121],
    ['/api/v2/trades?symbol=btcusdt', -1121],
  ])('answers %s with {code: %i, msg} and status 400', async (path, code) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code, msg: expect.any(String) });
  });

  it('rolls the 24 h ticker off when the clock passes a day without trades', async () => {
    clock.advance(24 * 3_600_000 + 5_000);
    await waitFor(
      async () => (await get<Json>('/openapi/quote/v1/ticker/24hr?symbol=BTCUSDT')).body.volume === '0.00000',
      'the 24 h window to roll',
      20_000,
    );
    expect((await get('/openapi/quote/v1/ticker/24hr?symbol=BTCUSDT')).body).toMatchObject({
      openPrice: '60000.00',
      highPrice: '60000.00',
      lowPrice: '60000.00',
      lastPrice: '60000.00',
      volume: '0.00000',
    });
    expect((await get('/openapi/quote/v1/trades?symbol=BTCUSDT')).body).toHaveLength(1);
  });
});
