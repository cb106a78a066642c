import { ApiError } from '../errors/api-error';
import { ManualClock } from '../time/clock';
import { InMemoryRateLimitStore } from './rate-limit-store';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const clock = new ManualClock(1_767_225_630_000);
  const limiter = new RateLimiter(
    new InMemoryRateLimitStore(),
    { weightPerMinute: 10, ordersPerSecond: 2, ordersPerDay: 3 },
    clock,
  );

  it('counts weight per subject in the minute and refuses past the limit with 429, -1003 and Retry-After', async () => {
    expect(await limiter.chargeWeight('key:a', 5)).toEqual({ 'X-SERVICE-USED-WEIGHT-1M': '5' });
    expect(await limiter.chargeWeight('key:a', 5)).toEqual({ 'X-SERVICE-USED-WEIGHT-1M': '10' });
    expect(await limiter.chargeWeight('key:b', 1)).toEqual({ 'X-SERVICE-USED-WEIGHT-1M': '1' });
    const refused = await limiter.chargeWeight('key:a', 1).catch((e: unknown) => e as ApiError);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      code: -1003,
      httpStatus: 429,
      headers: { 'Retry-After': '30', 'X-SERVICE-USED-WEIGHT-1M': '11' },
    });
    clock.advance(30_000);
    expect(await limiter.chargeWeight('key:a', 1)).toEqual({ 'X-SERVICE-USED-WEIGHT-1M': '1' });
  });

  it('limits new orders per second and per day with -1015', async () => {
    await limiter.chargeOrder('acct');
    expect(await limiter.chargeOrder('acct')).toEqual({
      'X-SERVICE-ORDER-COUNT-1S': '2',
      'X-SERVICE-ORDER-COUNT-1D': '2',
    });
    await expect(limiter.chargeOrder('acct')).rejects.toMatchObject({ code: -1015, headers: { 'Retry-After': '1' } });
    clock.advance(1000);
    await expect(limiter.chargeOrder('acct')).rejects.toMatchObject({
      code: -1015,
      message: expect.stringContaining('DAY'),
    });
  });
});
