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
