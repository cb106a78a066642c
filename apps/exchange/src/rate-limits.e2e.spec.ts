import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

describe('rate limits (configured low for the test)', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
  let exchange: TestExchange;
  let user: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { RATE_LIMIT_WEIGHT_PER_MINUTE: '12' } });
    user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!);
  });
  afterAll(async () => exchange.close());

  it('reports the limits in force in brokerInfo', async () => {
    const info = await http<{ rateLimits: unknown[] }>(exchange.baseUrl, 'GET', '/openapi/v1/brokerInfo');
    expect(info.body.rateLimits).toContainEqual({
      rateLimitType: 'REQUESTS_WEIGHT',
      interval: 'MINUTE',
      intervalNum: 1,
      limit: 12,
    });
  });

  it('counts signed weight per key and answers 429 / -1003 with Retry-After past the limit', async () => {
    const first = await signedRequest(exchange.baseUrl, 'GET', '/openapi/v1/account', user.key, {
      timestamp: clock.now(),
    });
    expect(first.headers.get('x-service-used-weight-1m')).toBe('5');
    await signedRequest(exchange.baseUrl, 'GET', '/openapi/v1/account', user.key, { timestamp: clock.now() });
    const refused = await signedRequest(exchange.baseUrl, 'GET', '/openapi/v1/account', user.key, {
      timestamp: clock.now(),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: -1003 });
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('x-service-used-weight-1m')).toBe('15');
    clock.advance(60_000);
    expect(
      (await signedRequest(exchange.baseUrl, 'GET', '/openapi/v1/account', user.key, { timestamp: clock.now() }))
        .status,
    ).toBe(200);
  });

  it('puts the weight and order counts on orders the handler or the ledger refuses', async () => {
    const order = { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '20000', quantity: '1' };
    const unknown = await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      timestamp: clock.now(),
      query: { symbol: 'NOPEUSDT', ...order },
    });
    // The user holds no USDT: the ledger refuses the hold, after the door has charged.
    const unfunded = await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
      timestamp: clock.now(),
      query: { symbol: 'BTCUSDT', ...order },
    });
    expect(unknown.body).toMatchObject({ code: -1121 });
    expect(unfunded.body).toMatchObject({ code: -1131 });
    const headers = (answer: typeof unknown) => ({
      weight: answer.headers.get('x-service-used-weight-1m'),
      second: answer.headers.get('x-service-order-count-1s'),
      day: answer.headers.get('x-service-order-count-1d'),
    });
    const weight = Number(headers(unknown).weight);
    expect(headers(unknown)).toEqual({ weight: String(weight), second: '1', day: '1' });
    expect(headers(unfunded)).toEqual({ weight: String(weight + 1), second: '2', day: '2' });
  });

  it('counts public weight per client IP', async () => {
    for (let i = 1; i <= 12; i++) {
      const answer = await http(exchange.baseUrl, 'GET', '/openapi/v1/pairs', {
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(answer.headers.get('x-service-used-weight-1m')).toBe(String(i));
    }
    expect(
      await http(exchange.baseUrl, 'GET', '/openapi/v1/pairs', { headers: { 'x-forwarded-for': '203.0.113.7' } }),
    ).toMatchObject({ status: 429, body: { code: -1003 } });
    expect(
      (await http(exchange.baseUrl, 'GET', '/openapi/v1/pairs', { headers: { 'x-forwarded-for': '203.0.113.8' } }))
        .status,
    ).toBe(200);
  });
});
