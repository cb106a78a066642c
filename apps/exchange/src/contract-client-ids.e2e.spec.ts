import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { contractClient } from '../../../test/support/contract-client';
import type { TestUser } from '../../../test/support/exchange-actors';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;
/** The smallest retry window the configuration takes: the clock is moved across it. */
const WINDOW_MS = 60_000;

/**
 * A contract order's client id through REST (API-DECISIONS): unique per account while the order is
 * open and for the retry window after it ends, as a spot order's; a repeat gets -1141 and never a
 * second order.
 */
describe('contract client order ids through REST', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let alice: TestUser;
  let client: ReturnType<typeof contractClient>;
  const call = (method: string, path: string, query: Record<string, string | number> = {}) =>
    client.call(alice, method, path, query);
  const open = (clientOrderId: string) =>
    call('POST', '/openapi/contract/v1/order', {
      symbol: 'BTC-SWAP-USDT',
      side: 'BUY_OPEN',
      quantity: '1',
      price: '20000',
      leverage: '10',
      clientOrderId,
    });

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { RETRY_WINDOW_MS: String(WINDOW_MS) } });
    client = contractClient(
      exchange.baseUrl,
      exchange.infrastructure.config.ADMIN_TOKEN!,
      clock,
      'BTC-SWAP-USDT',
      'BTCUSDT',
    );
    alice = await client.trader('1000');
  });
  afterAll(async () => exchange.close());

  it('makes one order of identical concurrent requests with one client id; the others get -1141', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => open('burst')));
    expect(answers.map((a) => [a.status, a.body['status'] ?? a.body['code']]).sort()).toEqual([
      [200, 'NEW'],
      ...Array.from({ length: 7 }, () => [400, -1141]),
    ]);
    const openOrders = (await call('GET', '/openapi/contract/v1/openOrders')).body as unknown as Json[];
    expect(openOrders.filter((o) => o.clientOrderId === 'burst')).toHaveLength(1);
  });

  it("refuses a canceled order's client id until the retry window has passed since the cancel, then takes it", async () => {
    const first = await open('keep');
    expect(first.body).toMatchObject({ clientOrderId: 'keep', status: 'NEW' });
    // The clock stands still until moved: the ledger decided the cancel at this instant.
    const canceledAt = clock.now();
    expect((await call('DELETE', '/openapi/contract/v1/order/cancel', { clientOrderId: 'keep' })).body).toMatchObject({
      clientOrderId: 'keep',
      status: 'CANCELED',
    });
    const repeat = await open('keep');
    expect([repeat.status, repeat.body['code']]).toEqual([400, -1141]);

    clock.set(canceledAt + WINDOW_MS - 1);
    expect((await open('keep')).body['code']).toBe(-1141);

    clock.set(canceledAt + WINDOW_MS);
    const again = await open('keep');
    expect(again.body).toMatchObject({ clientOrderId: 'keep', status: 'NEW' });
    expect(again.body['orderId']).not.toBe(first.body['orderId']);
    // The client id names the newest order again (under either name), and the canceled one is still in the history.
    for (const name of ['clientOrderId', 'origClientOrderId'])
      expect((await call('GET', '/openapi/contract/v1/getOrder', { [name]: 'keep' })).body).toMatchObject({
        orderId: again.body['orderId'],
        status: 'NEW',
      });
    const history = (await call('GET', '/openapi/contract/v1/historyOrders')).body as unknown as Json[];
    expect(history.filter((o) => o.clientOrderId === 'keep').map((o) => [o.orderId, o.status])).toEqual([
      [first.body['orderId'], 'CANCELED'],
    ]);
  });
});
