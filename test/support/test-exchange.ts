import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp, type Infrastructure, openInfrastructure, type ServiceModule } from '@exchange/bootstrap';
import { type Clock, startMetricsServer } from '@exchange/platform';
import { Client } from 'pg';
import { assertBalanceInvariant } from './balance-invariant';
import { committedLagProbe, MONEY_PATH_STAGES, waitUntilQuiet } from './quiet-pipeline';
import { exchangeModules } from '../../apps/exchange/src/exchange-modules';

export interface TestExchange {
  app: NestFastifyApplication;
  infrastructure: Infrastructure;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The metrics port's http://127.0.0.1:<port> (GET /metrics). */
  metricsUrl: string;
  close(): Promise<void>;
}

/**
 * The embedded exchange in this test process: every service module, a fresh DATA_DIR (so a fresh
 * event log), its own schemas in the test run's PostgreSQL (a random DATABASE_SCHEMA_PREFIX,
 * dropped at close, after the balance invariant is checked), an injected clock, listening on a
 * free port.
 */
export interface TestExchangeOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Run on CI's Kafka (KAFKA_BROKERS) in a namespace of its own, instead of the embedded log. */
  onKafkaWhenAvailable?: boolean;
  /** Which services run (all by default): leaving one out shows what its absence does to the others. */
  modules?: ServiceModule[];
  /**
   * false for a test that writes ledger.events itself with numbers of its choosing: the ledger's
   * tables are a projection of that journal, so its made-up balances need not add up to deposits.
   */
  balanceInvariant?: boolean;
}

export async function startTestExchange(options: TestExchangeOptions = {}): Promise<TestExchange> {
  const prefix = `t${randomBytes(5).toString('hex')}_`;
  const env = {
    DATABASE_SCHEMA_PREFIX: prefix,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'exchange-test-')),
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    // CI's real Redis when set, so the rate limiters run on it end to end.
    REDIS_URL: process.env.REDIS_URL ?? '',
    LOG_LEVEL: 'silent',
    ...(options.onKafkaWhenAvailable && process.env.KAFKA_BROKERS
      ? { KAFKA_BROKERS: process.env.KAFKA_BROKERS, EVENT_LOG_NAMESPACE: prefix.replace(/_$/, '') }
      : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    ...options.env,
  };
  const infrastructure = await openInfrastructure({
    service: 'exchange',
    mode: 'embedded',
    needsDatabase: true,
    env,
    clock: options.clock,
  });
  const app = await createApp(infrastructure, options.modules ?? exchangeModules);
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const metricsServer = await startMetricsServer(infrastructure.metrics, 0, '127.0.0.1');
  return {
    app,
    infrastructure,
    baseUrl,
    metricsUrl: metricsServer.url,
    close: async () => {
      await metricsServer.close();
      if (options.balanceInvariant !== false) await quietMoneyPath(infrastructure);
      await app.close();
      await infrastructure.close();
      try {
        if (options.balanceInvariant !== false) await assertBalanceInvariant(env.DATABASE_URL, `${prefix}ledger`);
      } finally {
        await dropSchemas(env.DATABASE_URL, prefix);
      }
    },
  };
}

/**
 * The tables the invariant reads are a projection of the ledger's events, and a trade's two legs
 * are settled in their users' partitions: closed while the projection is between them, the tables
 * show one leg. Wait for the stages this exchange runs (a group that never committed is a module
 * the test left out) to pass what was journaled; if they never do, the invariant says what is off.
 */
async function quietMoneyPath(infrastructure: Infrastructure): Promise<void> {
  const log = infrastructure.eventLog;
  const running = [];
  for (const stage of MONEY_PATH_STAGES)
    if ((await log.committedOffsets(stage.group, stage.topic)).some((offset) => offset > 0)) running.push(stage);
  await waitUntilQuiet([committedLagProbe(log, running)], 'the money path before the balance invariant', 20_000).catch(
    () => undefined,
  );
}

export async function dropSchemas(url: string, prefix: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      'SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)',
      [prefix],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}
