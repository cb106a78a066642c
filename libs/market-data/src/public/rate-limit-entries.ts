import type { Config } from '@exchange/platform';
import type { RateLimitEntry } from './broker-info';

/** The limits in force, as brokerInfo reports them: read from configuration, never hard-coded. */
export function rateLimitEntries(config: Config): RateLimitEntry[] {
  return [
    {
      rateLimitType: 'REQUESTS_WEIGHT',
      interval: 'MINUTE',
      intervalNum: 1,
      limit: config.RATE_LIMIT_WEIGHT_PER_MINUTE,
    },
    { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 1, limit: config.RATE_LIMIT_ORDERS_PER_SECOND },
    { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: config.RATE_LIMIT_ORDERS_PER_DAY },
  ];
}
