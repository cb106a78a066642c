import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { WebSocket } from 'ws';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import { depthSchema } from './http/quote.schemas';

interface Frame {
  symbol?: string;
  topic?: string;
  f?: boolean;
  data?: Record<string, unknown>[];
  code?: number;
  msg?: string;
  pong?: number;
}

/** A stream client that keeps every frame it received. */
class StreamClient {
  readonly frames: Frame[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
  }

  static async open(baseUrl: string): Promise<StreamClient> {
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/openapi/quote/ws/v1`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new StreamClient(ws);
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  of(topic: string): Frame[] {
    return this.frames.filter((f) => f.topic === topic);
  }
}

type Book = { bids: Map<string, string>; asks: Map<string, string> };

/** Applies a diff's levels: a quantity of zero removes the level. */
function apply(book: Book, diff: Record<string, unknown>): void {
  for (const [side, key] of [
    ['bids', 'b'],
    ['asks', 'a'],
  ] as const) {
    for (const [price, qty] of diff[key] as [string, string][]) {
      if (Number(qty) === 0) book[side].delete(price);
      else book[side].set(price, qty);
    }
  }
}

function sorted(book: Book): { bids: string[][]; asks: string[][] } {
  const byPrice = (desc: boolean) => (a: string[], b: string[]) =>
    desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0]);
  return { bids: [...book.bids].sort(byPrice(true)), asks: [...book.asks].sort(byPrice(false)) };
}

describe('public WebSocket streams', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 14, 10, 0, 0));
  let exchange: TestExchange;
  let maker: TestUser;
  let taker: TestUser;
  const order = (user: TestUser, query: Record<string, string>) =>
    signedRequest<Record<string, unknown>>(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      timestamp: clock.now(),
      query,
    });

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: { RATE_LIMIT_ORDERS_PER_SECOND: '1000', RATE_LIMIT_WEIGHT_PER_MINUTE: '100000' },
    });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    maker = await createFundedUser(exchange.baseUrl, token, { BTC: '10', USDT: '1000000' });
    taker = await createFundedUser(exchange.baseUrl, token, { BTC: '10', USDT: '1000000' });
    await waitFor(
      async () => (await http<{ status: string }>(exchange.baseUrl, 'GET', '/api/v2/health')).body.status === 'ok',
      'market data ready',
      60_000,
    );
  }, 60_000);
  afterAll(async () => exchange?.close());

  it('chains depth diffs onto the REST snapshot: applying them gives the REST book', async () => {
    const client = await StreamClient.open(exchange.baseUrl);
    client.send({ symbol: 'BTCUSDT', topic: 'diffDepth', event: 'sub' });
    await waitFor(() => client.of('diffDepth').length > 0, 'the first diffDepth frame');
    // Some book before the snapshot, some after it.
    for (let i = 0; i < 10; i++)
      await order(maker, {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        price: String(60_000 + i * 10),
        quantity: '0.1',
      });
    const snapshot = depthSchema.parse(
      (await http(exchange.baseUrl, 'GET', '/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1000')).body,
    );
    for (let i = 0; i < 10; i++) {
      await order(maker, {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: String(59_000 - i * 10),
        quantity: '0.2',
      });
      await order(taker, {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: String(60_000 + i * 5),
        quantity: '0.05',
      });
      await order(taker, { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.03' });
    }
    const final = depthSchema.parse(
      (await http(exchange.baseUrl, 'GET', '/openapi/quote/v1/depth?symbol=BTCUSDT&limit=1000')).body,
    );
    await waitFor(
      () => client.of('diffDepth').some((f) => (f.data?.[0]?.u as number) >= final.lastUpdateId),
      'diffs up to the final book',
    );

    const book: Book = {
      bids: new Map(snapshot.bids.map(([p, q]) => [p, q])),
      asks: new Map(snapshot.asks.map(([p, q]) => [p, q])),
    };
    let last = snapshot.lastUpdateId;
    for (const diff of client.of('diffDepth').flatMap((f) => f.data ?? [])) {
      const [first, lastOfDiff] = [diff.U as number, diff.u as number];
      if (lastOfDiff <= last) continue;
      expect(first).toBeLessThanOrEqual(last + 1);
      apply(book, diff);
      last = lastOfDiff;
    }
    expect(last).toBe(final.lastUpdateId);
    expect(sorted(book)).toEqual({ bids: final.bids, asks: final.asks });
    client.ws.close();
  }, 120_000);

  it('sends trades, klines, tickers and the cut depth, with the current state first', async () => {
    const client = await StreamClient.open(exchange.baseUrl);
    for (const topic of ['trade', 'kline_1m', 'realtimes', 'depth'])
      client.send({ symbol: 'BTCUSDT,ETHUSDT', topic, event: 'sub' });
    await waitFor(() => client.frames.filter((f) => f.f === true).length === 8, 'the first frames');
    const firstTrades = client.frames.find((f) => f.topic === 'trade' && f.symbol === 'BTCUSDT' && f.f)!;
    expect(firstTrades.data!.length).toBeGreaterThan(0);
    expect(firstTrades.data![0]).toEqual({
      v: expect.stringMatching(/^\d+$/),
      t: expect.any(Number),
      p: expect.stringMatching(/^\d+\.\d{2}$/),
      q: expect.stringMatching(/^\d+\.\d{5}$/),
      m: expect.any(Boolean),
    });

    clock.advance(60_000);
    await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '59500', quantity: '0.5' });
    await order(taker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '59500', quantity: '0.25' });
    await waitFor(() => client.frames.some((f) => f.topic === 'trade' && f.f === false), 'a live trade frame');
    const live = client.frames.find((f) => f.topic === 'trade' && f.f === false)!;
    expect(live).toMatchObject({
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      data: [{ p: '59500.00', q: '0.25000', m: false, t: clock.now() }],
    });
    await waitFor(() => client.frames.some((f) => f.topic === 'kline_1m' && f.f === false), 'a live kline frame');
    expect(client.frames.find((f) => f.topic === 'kline_1m' && f.f === false)!.data![0]).toMatchObject({
      t: Math.floor(clock.now() / 60_000) * 60_000,
      s: 'BTCUSDT',
      o: '59500.00',
      c: '59500.00',
      v: '0.25000',
      i: '1m',
    });
    await waitFor(() => client.frames.some((f) => f.topic === 'realtimes' && f.f === false), 'a live ticker frame');
    expect(client.frames.filter((f) => f.topic === 'realtimes' && f.f === false).pop()!.data![0]).toMatchObject({
      s: 'BTCUSDT',
      c: '59500.00',
    });

    // The cut depth moves when event time passes a 300 ms boundary (the engine's clock tick).
    clock.advance(1000);
    await waitFor(
      () => client.frames.some((f) => f.topic === 'depth' && f.f === false && f.symbol === 'BTCUSDT'),
      'a depth frame after the cut',
      20_000,
    );
    client.ws.close();
  }, 120_000);

  it('answers pings, cancels subscriptions, and refuses bad messages with {code, msg}', async () => {
    const client = await StreamClient.open(exchange.baseUrl);
    client.send({ ping: 1234 });
    await waitFor(() => client.frames.some((f) => f.pong === 1234), 'the pong');
    client.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub' });
    await waitFor(() => client.of('trade').length === 1, 'the first trade frame');
    client.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'cancel' });
    client.send({ symbol: 'NOPE', topic: 'trade', event: 'sub' });
    client.ws.send('not json');
    client.send({ symbol: 'BTCUSDT', topic: 'kline_3m', event: 'sub' });
    client.send({ symbol: 'BTCUSDT', topic: 'trades', event: 'sub' });
    client.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'subscribe' });
    client.send({ topic: 'trade', event: 'sub' });
    await waitFor(() => client.frames.filter((f) => f.code !== undefined).length === 6, 'six error frames');
    expect(client.frames.filter((f) => f.code !== undefined).map((f) => f.code)).toEqual([
      -1121, -1100, -1120, -1130, -1130, -1102,
    ]);
    await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '59000', quantity: '0.01' });
    await order(taker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '59000', quantity: '0.01' });
    // Once REST shows the trade, the replica has folded it and published its frames (the same step).
    await waitFor(
      async () =>
        (await http<{ price: string }[]>(exchange.baseUrl, 'GET', '/openapi/quote/v1/trades?symbol=BTCUSDT&limit=1'))
          .body[0]?.price === '59000.00',
      'the trade folded',
    );
    client.send({ ping: 5678 });
    await waitFor(() => client.frames.some((f) => f.pong === 5678), 'the second pong');
    expect(client.of('trade')).toHaveLength(1);
    client.ws.close();
  }, 60_000);
});
