import { Markets } from '@exchange/contracts';
import { withEmbeddedSecrets } from './embedded-secrets';
import { createEventLog, type EventLog } from '@exchange/messaging';
import {
  type Clock,
  type Config,
  createLogger,
  InMemoryListenKeyStore,
  InMemoryRateLimitStore,
  type ListenKeyStore,
  loadConfig,
  Metrics,
  type Logger,
  RateLimiter,
  type RateLimitStore,
  RedisListenKeyStore,
  RedisRateLimitStore,
  resolveDatabase,
  type RunMode,
  type RunningDatabase,
  systemClock,
} from '@exchange/platform';

/** What an app opens before Nest starts, and closes last on the way out. */
export interface Infrastructure {
  service: string;
  config: Config;
  logger: Logger;
  markets: Markets;
  clock: Clock;
  eventLog: EventLog;
  /** Absent for services that keep no tables (matching-engine, user-stream). */
  database?: RunningDatabase;
  /** REQUESTS_WEIGHT and ORDERS limiters, shared through Redis when REDIS_URL is set. */
  rateLimiter: RateLimiter;
  /** listenKeys of the user data stream: Redis when REDIS_URL is set, so gateway and user-stream replicas share them. */
  listenKeys: ListenKeyStore;
  metrics: Metrics;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  service: string;
  mode: RunMode;
  needsDatabase: boolean;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

export async function openInfrastructure(options: InfrastructureOptions): Promise<Infrastructure> {
  const loaded = loadConfig(options.env ?? process.env, options.mode);
  const config = options.mode === 'embedded' ? withEmbeddedSecrets(loaded) : loaded;
  const logger = createLogger(options.service, config.LOG_LEVEL);
  const markets = Markets.fromFile(config.MARKETS_FILE, {
    contractFundingIntervalMs: config.CONTRACT_FUNDING_INTERVAL_MS,
  });
  const clock = options.clock ?? systemClock;
  const database = options.needsDatabase ? await resolveDatabase(config, logger) : undefined;
  const metrics = new Metrics(options.service);
  let eventLog: EventLog;
  try {
    eventLog = await createEventLog(config, logger, metrics);
  } catch (error) {
    await database?.stop();
    throw error;
  }
  // The schema prefix also namespaces Redis keys, so exchanges sharing a Redis never share counters.
  const rateLimitStore: RateLimitStore = config.REDIS_URL
    ? new RedisRateLimitStore(config.REDIS_URL, `${config.DATABASE_SCHEMA_PREFIX ?? ''}rl`)
    : new InMemoryRateLimitStore();
  const rateLimiter = new RateLimiter(
    rateLimitStore,
    {
      weightPerMinute: config.RATE_LIMIT_WEIGHT_PER_MINUTE,
      ordersPerSecond: config.RATE_LIMIT_ORDERS_PER_SECOND,
      ordersPerDay: config.RATE_LIMIT_ORDERS_PER_DAY,
    },
    clock,
  );
  const listenKeys: ListenKeyStore = config.REDIS_URL
    ? new RedisListenKeyStore(config.REDIS_URL, clock, `${config.DATABASE_SCHEMA_PREFIX ?? ''}lk`)
    : new InMemoryListenKeyStore(clock);
  return {
    service: options.service,
    config,
    logger,
    markets,
    clock,
    eventLog,
    database,
    rateLimiter,
    listenKeys,
    metrics,
    close: async () => {
      await eventLog.close();
      await rateLimitStore.close();
      await listenKeys.close();
      await database?.stop();
    },
  };
}
