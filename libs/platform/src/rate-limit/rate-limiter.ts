import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import type { Clock } from '../time/clock';
import type { RateLimitStore } from './rate-limit-store';

export interface RateLimits {
  weightPerMinute: number;
  ordersPerSecond: number;
  ordersPerDay: number;
}

const MINUTE = 60_000;
const SECOND = 1000;
const DAY = 86_400_000;

export const RateLimitHeaders = {
  usedWeight: 'X-SERVICE-USED-WEIGHT-1M',
  orderCountSecond: 'X-SERVICE-ORDER-COUNT-1S',
  orderCountDay: 'X-SERVICE-ORDER-COUNT-1D',
} as const;

/**
 * The REQUESTS_WEIGHT and ORDERS limiters of API-DECISIONS.md. Every request is counted, also one
 * that is refused, as the family does; the headers say how much of each limit is used.
 */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  /** Counts `weight` for `subject` (an API key or a client IP) and returns the response headers. */
  async chargeWeight(subject: string, weight: number): Promise<Record<string, string>> {
    const now = this.clock.now();
    const used = await this.store.increment(`w:${subject}`, weight, MINUTE, now);
    const headers = { [RateLimitHeaders.usedWeight]: String(used) };
    if (used > this.limits.weightPerMinute) {
      throw new ApiError(
        ErrorCode.TOO_MUCH_WEIGHT,
        `Too much request weight used; current limit is ${this.limits.weightPerMinute} request weight per 1 MINUTE.`,
        429,
        {
          ...headers,
          'Retry-After': String(Math.ceil((MINUTE - (now % MINUTE)) / 1000)),
        },
      );
    }
    return headers;
  }

  /** Counts one new order of `account` against the per-second and per-day limits. */
  async chargeOrder(account: string): Promise<Record<string, string>> {
    const now = this.clock.now();
    const [second, day] = await Promise.all([
      this.store.increment(`o:${account}`, 1, SECOND, now),
      this.store.increment(`o:${account}`, 1, DAY, now),
    ]);
    const headers = {
      [RateLimitHeaders.orderCountSecond]: String(second),
      [RateLimitHeaders.orderCountDay]: String(day),
    };
    if (second > this.limits.ordersPerSecond || day > this.limits.ordersPerDay) {
      const perSecond = second > this.limits.ordersPerSecond;
      const retry = perSecond ? 1 : Math.ceil((DAY - (now % DAY)) / 1000);
      throw new ApiError(
        ErrorCode.TOO_MANY_ORDERS,
        perSecond
          ? `Too many new orders; current limit is ${this.limits.ordersPerSecond} orders per SECOND.`
          : `Too many new orders; current limit is ${this.limits.ordersPerDay} orders per DAY.`,
        429,
        { ...headers, 'Retry-After': String(retry) },
      );
    }
    return headers;
  }
}
