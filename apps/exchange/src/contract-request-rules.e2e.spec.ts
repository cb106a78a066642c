import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { contractClient } from '../../../test/support/contract-client';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';

/** The contract endpoints keep the spot API's rules (issue 17): signatures, permissions, paging. */
describe('contract endpoints: signatures, permissions and paging as on spot', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let client: ReturnType<typeof contractClient>;
  let alice: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock });
    client = contractClient(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, clock, SWAP, 'BTCUSDT');
    alice = await client.trader('1000');
  });
  afterAll(async () => exchange.close());

  it('refuses a wrong secret (401, -1022) and a read-only key on trading (403, -2015), which still reads', async () => {
    const order = {
      symbol: SWAP,
      side: 'BUY_OPEN',
      quantity: '1',
      price: '20000',
      leverage: '10',
      clientOrderId: 'r1',
    };
    const forged = await signedRequest(exchange.baseUrl, 'POST', '/openapi/contract/v1/order', alice.key, {
      timestamp: clock.now(),
      query: order,
      secretOverride: 'x'.repeat(64),
    });
    expect(forged).toMatchObject({ status: 401, body: { code: -1022 } });
    const reader = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, {}, ['read']);
    const refused = await client.call(reader, 'POST', '/openapi/contract/v1/order', order);
    expect(refused).toMatchObject({ status: 403, body: { code: -2015 } });
    expect((await client.call(reader, 'GET', '/openapi/contract/v1/account')).body).toEqual({
      USDT: { total: '0', availableMargin: '0', positionMargin: '0', orderMargin: '0' },
    });
  });

  it('pages historyOrders by orderId and limit, newest first, as spot lists do', async () => {
    const ids: string[] = [];
    for (const clientOrderId of ['p1', 'p2', 'p3']) {
      const placed = await client.call(alice, 'POST', '/openapi/contract/v1/order', {
        symbol: SWAP,
        side: 'BUY_OPEN',
        quantity: '1',
        price: '20000',
        leverage: '10',
        clientOrderId,
      });
      ids.push(String(placed.body['orderId']));
    }
    const canceled = await client.call<{ orderIds: string[] }>(
      alice,
      'DELETE',
      '/openapi/contract/v1/order/batchCancel',
      {
        symbol: SWAP,
      },
    );
    expect([...canceled.body.orderIds].sort()).toEqual([...ids].sort());
    const page = async (query: Record<string, string | number>) =>
      (await client.call<Json[]>(alice, 'GET', '/openapi/contract/v1/historyOrders', query)).body.map(
        (o) => o.clientOrderId,
      );
    expect(await page({ limit: 2 })).toEqual(['p3', 'p2']);
    expect(await page({ limit: 2, orderId: ids[1]! })).toEqual(['p1']);
    expect(await page({ limit: 1, orderId: ids[0]! })).toEqual([]);
    // A spot symbol is not a contract (-1121), on lists as on orders.
    expect(
      (await client.call(alice, 'GET', '/openapi/contract/v1/historyOrders', { symbol: 'BTCUSDT' })).body,
    ).toMatchObject({ code: -1121 });
  });
});
