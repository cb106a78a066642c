import { z } from 'zod';

/**
 * Every environment variable the apps read, in one place. The README's configuration table and
 * the deploy/ cross-check test are written against this list, so add new variables here only.
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Prometheus metrics (GET /metrics) are served on this port, never on PORT, the public one (0: any free port). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  DATA_DIR: z.string().default('./data'),
  /** Proxies whose X-Forwarded-For names the client (per-IP limits): loopback and private ranges by default. */
  TRUSTED_PROXIES: z.string().default('127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_TOKEN: z.string().min(16).optional(),
  SECRET_ENCRYPTION_KEY: z.string().min(32).optional(),
  /** Comma-separated keys that were SECRET_ENCRYPTION_KEY before a rotation; still used to decrypt. */
  SECRET_ENCRYPTION_PREVIOUS_KEYS: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  /** Prefix of every service's schema, so several exchanges (or test runs) can share one database. */
  DATABASE_SCHEMA_PREFIX: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  REDIS_URL: z.string().url().optional(),
  KAFKA_BROKERS: z.string().min(1).optional(),
  KAFKA_CLIENT_ID: z.string().default('exchange'),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(5).default(1),
  /** Prefix of every topic and consumer group (`<namespace>.<topic>`): several exchanges on one cluster. */
  EVENT_LOG_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  EVENT_LOG_FSYNC: z.enum(['always', 'never']).default('always'),
  /**
   * Embedded log: how long an fdatasync may wait for a chain of in-process steps still appending
   * (an order's gateway → ledger → engine → ledger) so that one sync covers the chain (ms, at most
   * after the oldest unsynced write; 0: sync at once). Keep it below the disk's fdatasync time.
   */
  EVENT_LOG_SYNC_SETTLE_MS: z.coerce.number().min(0).max(50).default(2),
  /**
   * Embedded log: a partition's segment file is sealed and a new one started past this size (a
   * topic's segment.bytes wins). Only sealed segments are compressed, so this bounds what each
   * partition keeps uncompressed: 16 MiB over the exchange's ~60 partitions is under 1 GiB.
   */
  EVENT_LOG_SEGMENT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Embedded log: memory for records and indexes read back from segments (the tail of each partition is kept apart, one index step each). */
  EVENT_LOG_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /** Embedded log: a checkpoint (segments synced, manifest rewritten, journal restarted) once the journal passes this size; bounds the replay at start. */
  EVENT_LOG_CHECKPOINT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Embedded log: how often retention and compaction run, then the compression of sealed segments (ms; 0: never). */
  EVENT_LOG_MAINTENANCE_MS: z.coerce.number().int().min(0).default(60_000),
  MARKETS_FILE: z.string().default('config/markets.json'),
  /** Overrides every contract's funding interval of the markets file (ms), so tests and demos can fund in seconds. */
  CONTRACT_FUNDING_INTERVAL_MS: z.coerce.number().int().positive().optional(),
  EXCHANGE_ID: z.string().default('301'),
  INSTANCE_ID: z.coerce.number().int().min(0).max(31).default(0),
  /** Set by Kubernetes; a StatefulSet pod's ordinal (`api-gateway-1`) becomes INSTANCE_ID when that is unset. */
  POD_NAME: z.string().optional(),
  RATE_LIMIT_WEIGHT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  RATE_LIMIT_ORDERS_PER_SECOND: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_ORDERS_PER_DAY: z.coerce.number().int().positive().default(200_000),
  /**
   * The retry window (ms): a final order keeps its client order id this long (a repeat gets -1141),
   * and the ledger and the wallet remember a processed command id this long (a redelivered command
   * is skipped). Memory and PostgreSQL hold what this window covers, not the whole history.
   */
  RETRY_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(10 * 60 * 1000),
  /** ledger: a partition's hot state goes to ledger.snapshots after this many commands; a restart folds only the events after it. */
  LEDGER_SNAPSHOT_EVERY: z.coerce.number().int().positive().default(20_000),
  /** ledger: ...and at the first batch this long (ms; 0: never) after the last snapshot, if anything was decided since. */
  LEDGER_SNAPSHOT_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** api-gateway, user-stream: how long a read waits for the ledger's projection to reach what was journaled when it arrived, before 503 / -1016. */
  READ_AFTER_WRITE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** api-gateway: accounts and API keys each cached per replica, least recently used out first. */
  GATEWAY_CACHE_MAX_ENTRIES: z.coerce.number().int().min(100).default(100_000),
  /** A signed POST, PUT or DELETE is accepted once: the same signature again within its recvWindow is refused (-1022). */
  REPLAY_GUARD: z.enum(['on', 'off']).default('on'),
  /** Signatures the embedded replay guard remembers at once (Redis holds them in the distributed mode); past it, signed changes get 503 / -1016. */
  REPLAY_GUARD_MAX_ENTRIES: z.coerce.number().int().min(1000).default(200_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** user-stream: how often one timer checks every socket (pings, pong timeouts, the 24 h cap, listenKey expiry). */
  USER_STREAM_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(30_000).default(1000),
  /** user-stream: API keys each replica remembers as live or revoked, least recently used out first. */
  USER_STREAM_API_KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().min(100).default(100_000),
  /** user-stream: a socket whose unsent frames pass this many bytes is a slow consumer and is dropped. */
  USER_STREAM_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  /** A connection that has not sent a request's headers this long after it began is answered 408 and closed (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** The same for a whole request, body included (at least HTTP_HEADERS_TIMEOUT_MS). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Both streams: inbound messages one socket may send per second; a socket past it is closed with 1008. */
  WS_MAX_MESSAGES_PER_SECOND: z.coerce.number().int().positive().default(20),
  /** Both streams: open sockets per client address on one replica (behind the edge, the address of X-Forwarded-For from TRUSTED_PROXIES). */
  WS_MAX_SOCKETS_PER_IP: z.coerce.number().int().positive().default(100),
  /** Commands one gateway replica may wait on at once; past it new commands get 503 / -1016 at once. */
  MAX_PENDING_REQUESTS: z.coerce.number().int().positive().default(10_000),
  /** Records the ledger and the matching engine may be behind on their inputs before new commands get 503 / -1016 (0: no bound). */
  MAX_PIPELINE_LAG: z.coerce.number().int().min(0).default(50_000),
  /** Largest request body in bytes; a larger one is refused with 413 / -1100 before it is parsed. */
  MAX_REQUEST_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
  /** The matching engine checks this often (ms; 0: never) whether an order.events partition needs a ClockTicked (after activity, when a trade leaves the 24 h window), so 24 h tickers roll for quiet symbols. */
  ENGINE_CLOCK_TICK_MS: z.coerce.number().int().min(0).default(1000),
  /** A partition with nothing to roll still gets a ClockTicked this often (ms): it rolls windows of trades the engine did not see itself (before its start, another replica's). */
  ENGINE_CLOCK_IDLE_TICK_MS: z.coerce.number().int().positive().default(60_000),
  /** Market data: characters of serialised answers (depth, klines, tickers) kept per replica, least recently used out first (ASCII: bytes). */
  MARKET_DATA_ANSWER_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(32 * 1024 * 1024),
  /**
   * Market data: stored trades older than this are deleted (ms; 0: kept forever). Each symbol keeps
   * its newest 1,000 whatever their age: a start reads only those (its 24 h window comes from the 1m candles).
   */
  MARKET_DATA_TRADE_RETENTION_MS: z.coerce.number().int().min(0).default(3_600_000),
  /**
   * Market data: how long stored candles of each interval are kept, `<interval>=<days>` pairs
   * (0 or an interval left out: forever), pruned after book cuts in bounded batches. Each symbol
   * keeps its newest 1,000 of every interval whatever their age (a start reads those), and 1m
   * candles at least 1 day (a start's 24 h ticker window): market data refuses to start otherwise.
   */
  MARKET_DATA_KLINE_RETENTION_DAYS: z
    .string()
    .regex(/^([0-9]+[a-zA-Z]=[0-9]+(\.[0-9]+)?)?(,[0-9]+[a-zA-Z]=[0-9]+(\.[0-9]+)?)*$/)
    .default('1m=30,5m=90,15m=365,30m=365,1h=1095,2h=1095,4h=1095,6h=1095,8h=1095,12h=1095'),
  /** Market data stores each partition's book cut at least this often (ms; also every 1000 book updates): new replicas start from it. */
  MARKET_DATA_CUT_INTERVAL_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Config = z.infer<typeof configSchema>;

/** The variable names, for tools that check manifests against the code. */
export const configVariableNames = Object.keys(configSchema.shape) as (keyof Config)[];
