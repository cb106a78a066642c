/**
 * Suites against real PostgreSQL, Redis or Kafka run when their address is set and say in one
 * line that they skipped when it is not. CI sets REQUIRE_REAL_SERVICES=1, which turns a missing
 * address into a failure: a skipped real-service suite in CI would be a silent defect.
 */
export type RealService = 'KAFKA_BROKERS' | 'DATABASE_URL' | 'REDIS_URL';

export function realServiceAddress(variable: RealService, suite: string): string | undefined {
  const value = process.env[variable];
  if (value) return value;
  if (process.env.REQUIRE_REAL_SERVICES === '1') {
    throw new Error(`${suite}: ${variable} is not set, but REQUIRE_REAL_SERVICES=1 demands the real service`);
  }
  console.log(`skipped: ${suite} (set ${variable} to run it against the real service)`);
  return undefined;
}
