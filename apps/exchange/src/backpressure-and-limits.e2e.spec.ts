import 'reflect-metadata';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;

/**
 * Limits that keep an overloaded exchange answering: a gateway holds at most
 * MAX_PENDING_REQUESTS commands waiting for the ledger and refuses the next ones at once with
 * 503 / -1016 (nothing queued, nothing created); bodies over MAX_REQUEST_BODY_BYTES are refused
 * before parsing with 413 / -1100.
 */
describe('backpressure and request limits', () => {
  let exchange: TestExchange;
  let user: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({
      env: { MAX_PENDING_REQUESTS: '1', MAX_REQUEST_BODY_BYTES: '2048', RATE_LIMIT_ORDERS_PER_SECOND: '1000' },
    });
    user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, { USDT: '100000' });
  });
  afterAll(async () => exchange.close());

  it('refuses commands past the pending bound with 503 / -1016 at once, and creates only the accepted ones', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signedRequest<Json>(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
          query: {
            symbol: 'BTCUSDT',
            side: 'BUY',
            type: 'LIMIT',
            price: '100',
            quantity: '0.1',
            newClientOrderId: `bp-${i}`,
          },
        }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    expect(accepted.length + refused.length).toBe(30);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.body).toEqual({ code: -1016, msg: expect.any(String) });
    const open = await signedRequest<Json[]>(exchange.baseUrl, 'GET', '/openapi/v1/openOrders', user.key);
    expect(open.body.map((o) => o.clientOrderId).sort()).toEqual(accepted.map((a) => a.body.clientOrderId).sort());
  });

  it('refuses a body over the size limit with 413 / -1100 and takes one under it', async () => {
    const padding = (n: number): Record<string, string> => ({ note: 'x'.repeat(n) });
    const big = await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.1', ...padding(3000) },
    });
    expect(big).toMatchObject({ status: 413, body: { code: -1100 } });
    const small = await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      body: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.1', ...padding(1000) },
    });
    expect(small).toMatchObject({ status: 200, body: { status: 'NEW' } });
    expect(
      (
        await http(exchange.baseUrl, 'POST', '/admin/v1/users', {
          body: JSON.stringify({ name: 'y'.repeat(4000) }),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(413);
  });
});
