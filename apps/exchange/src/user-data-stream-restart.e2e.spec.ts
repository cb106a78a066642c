import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@exchange/bootstrap';
import { UserStreamModule } from '@exchange/user-stream';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { type Frame, StreamClient } from '../../../test/support/stream-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

// Waits on a shared machine and a real broker can pass Jest's default 5 s; each wait has its own deadline.
jest.setTimeout(60_000);

interface OrderState {
  status: string;
  executedQty: string;
}
type Balances = Record<string, { free: string; locked: string }>;

const FINAL = new Set(['FILLED', 'CANCELED', 'REJECTED']);

/**
 * A user-stream replica restarts in the middle of a burst of trading. The client follows the
 * README's recipe: on reconnect, open the socket, re-query openOrders and account, then apply the
 * frames; an order it knew open that is neither open nor reported since is queried by id. What it
 * then knows must be what the exchange holds.
 */
describe('user data stream across a restart of user-stream in the middle of a burst', () => {
  let exchange: TestExchange;
  let maker: TestUser;
  let taker: TestUser;

  const call = <T>(user: TestUser, method: string, path: string, query: Record<string, string> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { query });
  const startReplica = async (): Promise<{ app: NestFastifyApplication; url: string }> => {
    const app = await createApp(exchange.infrastructure, [UserStreamModule]);
    await app.listen(0, '127.0.0.1');
    return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
  };
  const accountOf = async (user: TestUser): Promise<Balances> => {
    const answer = await call<{ balances: { asset: string; free: string; locked: string }[] }>(
      user,
      'GET',
      '/openapi/v1/account',
    );
    return Object.fromEntries(answer.body.balances.map((b) => [b.asset, { free: b.free, locked: b.locked }]));
  };

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true, env: { RATE_LIMIT_ORDERS_PER_SECOND: '1000' } });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    maker = await createFundedUser(exchange.baseUrl, token, { BTC: '10' });
    taker = await createFundedUser(exchange.baseUrl, token, { USDT: '10000000' });
  });
  afterAll(async () => exchange.close());

  it('loses nothing that re-querying openOrders and account (and the orders that vanished) does not recover', async () => {
    const listenKey = (await call<{ listenKey: string }>(maker, 'POST', '/openapi/v1/userDataStream')).body.listenKey;
    const first = await startReplica();
    const before = await StreamClient.connect(first.url, listenKey);

    // The burst: the maker rests 40 sells and cancels every fourth; the taker buys across them.
    const placed: string[] = [];
    const burst = (async () => {
      for (let i = 0; i < 40; i++) {
        const sell = await call<{ orderId: string }>(maker, 'POST', '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'SELL',
          type: 'LIMIT',
          price: String(60_000 + i),
          quantity: '0.1',
        });
        placed.push(sell.body.orderId);
        if (i % 4 === 3) await call(maker, 'DELETE', '/openapi/v1/order', { orderId: sell.body.orderId });
        if (i % 3 === 0)
          await call(taker, 'POST', '/openapi/v1/order', {
            symbol: 'BTCUSDT',
            side: 'BUY',
            type: 'LIMIT',
            timeInForce: 'IOC',
            price: String(60_000 + i),
            quantity: '0.15',
          });
      }
    })();

    await before.waitForFrames('the burst to be under way', (f) => f.length >= 20, 60_000);
    await first.app.close();
    expect((await before.waitForClose()).code).toBe(1001);
    const second = await startReplica();
    const after = await StreamClient.connect(second.url, listenKey);
    const openOrders = (
      await call<{ orderId: string; status: string; executedQty: string }[]>(maker, 'GET', '/openapi/v1/openOrders')
    ).body;
    const account = await accountOf(maker);
    await burst;

    const lastReport = (frames: Frame[]): Map<string, OrderState> => {
      const last = new Map<string, OrderState>();
      for (const f of frames)
        if (f.e === 'executionReport') last.set(String(f.i), { status: String(f.X), executedQty: String(f.z) });
      return last;
    };
    /** The client's view: the re-query overlaid with every frame since the socket opened, and the vanished orders queried by id. */
    const clientView = async (): Promise<{ orders: Map<string, OrderState>; balances: Balances }> => {
      const known = lastReport(before.frames);
      const since = lastReport(after.frames);
      const orders = new Map<string, OrderState>();
      for (const id of placed) {
        const open = openOrders.find((o) => o.orderId === id);
        const seen =
          since.get(id) ??
          (open && { status: open.status, executedQty: open.executedQty }) ??
          (FINAL.has(known.get(id)?.status ?? '') ? known.get(id) : undefined);
        orders.set(id, seen ?? (await call<OrderState>(maker, 'GET', '/openapi/v1/order', { orderId: id })).body);
      }
      const balances: Balances = JSON.parse(JSON.stringify(account)) as Balances;
      for (const f of after.frames)
        if (f.e === 'outboundAccountInfo')
          for (const b of f.B as { a: string; f: string; l: string }[]) balances[b.a] = { free: b.f, locked: b.l };
      return { orders, balances };
    };
    const exchangeView = async (): Promise<{ orders: Map<string, OrderState>; balances: Balances }> => {
      const orders = new Map<string, OrderState>();
      for (const id of placed) {
        const o = (await call<OrderState>(maker, 'GET', '/openapi/v1/order', { orderId: id })).body;
        orders.set(id, { status: o.status, executedQty: o.executedQty });
      }
      return { orders, balances: await accountOf(maker) };
    };

    let last: unknown;
    await waitFor(
      async () => {
        const [mine, theirs] = [await clientView(), await exchangeView()];
        last = { mine: [...mine.orders], theirs: [...theirs.orders], balances: [mine.balances, theirs.balances] };
        return (
          JSON.stringify([...mine.orders].map(([id, o]) => [id, o.status, o.executedQty])) ===
            JSON.stringify([...theirs.orders].map(([id, o]) => [id, o.status, o.executedQty])) &&
          JSON.stringify(mine.balances) === JSON.stringify(theirs.balances)
        );
      },
      'the client to know what the exchange holds',
      30_000,
      200,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(last)}`);
    });
    expect(placed).toHaveLength(40);
    expect(before.frames.length).toBeGreaterThan(0);
    expect(after.frames.some((f) => f.e === 'executionReport')).toBe(true);
    after.close();
    await second.app.close();
  }, 120_000);
});
