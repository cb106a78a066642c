// bench/user-stream: the user data stream's fan-out. One user-stream replica (the real service,
// apps/user-stream, on Kafka + Redis + PostgreSQL) holds SOCKETS sockets across ACCOUNTS accounts
// (SOCKETS / ACCOUNTS per account, on the account's listenKey) while this process publishes bursts
// of TradeSettled events to ledger.events, each rendered by the stream into an executionReport and
// an outboundAccountInfo. Beside it, in the same run, a bare `ws` server broadcasts the same frames
// (encoded once) to the same sockets: the ceiling. Run: `npm run bench:user-stream` with
// KAFKA_BROKERS, DATABASE_URL and REDIS_URL set.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminService } from '@exchange/api-gateway';
import { createApp, openInfrastructure } from '@exchange/bootstrap';
import { Topics } from '@exchange/contracts';
import { KafkaEventLog, NamespacedEventLog, type OutgoingRecord } from '@exchange/messaging';
import { Client } from 'pg';
import { exchangeModules } from '../../apps/exchange/src/exchange-modules';
import { startPinnedServer, stopServer } from '../support/pinned-server';
import { taskset } from '../support/pinned-child';
import { BENCH_PORTS } from '../support/ports';
import { formatNumber, formatSpread, median, spread } from '../support/stats';
import { type BenchAccount, orderPlaced, tradeSettled } from './bench-frames';
import { type IpcWorker, startIpcWorker } from './ipc-worker';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1000);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SUT_CORE = 0;
const LOAD_CORE = 1;
const SUT_PORT = BENCH_PORTS.userStream;
const BARE_PORT = BENCH_PORTS.userStream + 100;
/** Each event becomes two frames (executionReport, outboundAccountInfo) for every socket of its account. */
const EXPECTED = EVENTS * 2 * (SOCKETS / ACCOUNTS);

interface Collected {
  received: number;
  first: number;
  last: number;
  p50: number;
  p99: number;
  samples: number;
  open: number;
}

interface Run {
  framesPerSecond: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
  received: number;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bench/user-stream needs ${name} (the user-stream service runs in its distributed mode)`);
  return value;
}

async function setUp(settings: Record<string, string>): Promise<BenchAccount[]> {
  const infrastructure = await openInfrastructure({
    service: 'bench-setup',
    mode: 'embedded',
    needsDatabase: true,
    env: settings,
  });
  const app = await createApp(infrastructure, exchangeModules);
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const admin = app.get(AdminService);
  const accounts: BenchAccount[] = [];
  for (let i = 0; i < ACCOUNTS; i += 50) {
    const made = await Promise.all(
      Array.from({ length: Math.min(50, ACCOUNTS - i) }, async () => {
        const user = await admin.createUser('bench');
        const accountId = user.accounts.find((a) => a.accountType === 1)!.accountId;
        const key = await admin.createApiKey(accountId, ['read']);
        const record = await infrastructure.listenKeys.open({ apiKey: key.apiKey, accountId, userId: user.userId });
        return { userId: user.userId, accountId, listenKey: record.listenKey };
      }),
    );
    accounts.push(...made);
  }
  await app.close();
  await infrastructure.close();
  return accounts;
}

async function measure(clients: IpcWorker, fire: () => Promise<number>): Promise<Run> {
  await clients.request({ type: 'arm' });
  const start = Date.now();
  await fire();
  const c = await clients.request<Collected>({ type: 'collect', expected: EXPECTED, timeoutMs: 120_000 });
  if (c.received < EXPECTED)
    console.log(`  warning: ${c.received} of ${EXPECTED} frames arrived (open sockets: ${c.open})`);
  const seconds = Math.max(1, c.last - start) / 1000;
  return {
    framesPerSecond: c.received / seconds,
    eventsPerSecond: c.received / 2 / (SOCKETS / ACCOUNTS) / seconds,
    p50: c.p50,
    p99: c.p99,
    received: c.received,
  };
}

async function series(name: string, clients: IpcWorker, fire: (run: number) => Promise<number>): Promise<Run[]> {
  await measure(clients, () => fire(0));
  const runs: Run[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const result = await measure(clients, () => fire(run));
    console.log(
      `  ${name} run ${run}: ${formatNumber(result.framesPerSecond)} frames/s (${formatNumber(result.eventsPerSecond)} events/s), p50 ${result.p50} ms, p99 ${result.p99} ms`,
    );
    runs.push(result);
  }
  return runs;
}

function report(name: string, runs: Run[]): void {
  console.log(
    `${name.padEnd(12)} frames/s ${formatSpread(spread(runs.map((r) => r.framesPerSecond)))}  events/s ${formatSpread(spread(runs.map((r) => r.eventsPerSecond)))}  ` +
      `p50 ${formatSpread(spread(runs.map((r) => r.p50)))} ms  p99 ${formatSpread(spread(runs.map((r) => r.p99)))} ms`,
  );
}

async function main(): Promise<void> {
  const [brokers, databaseUrl, redisUrl] = [env('KAFKA_BROKERS'), env('DATABASE_URL'), env('REDIS_URL')];
  if (taskset()) execFileSync(taskset()!, ['-cp', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' });
  const prefix = `bench${randomBytes(4).toString('hex')}_`;
  const settings = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    KAFKA_BROKERS: brokers,
    EVENT_LOG_NAMESPACE: prefix.slice(0, -1),
    DATABASE_SCHEMA_PREFIX: prefix,
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-user-stream-')),
    LOG_LEVEL: 'warn',
    // Every benchmark socket comes from 127.0.0.1.
    WS_MAX_SOCKETS_PER_IP: '1000000',
    METRICS_PORT: '0',
  };
  console.log(
    `bench/user-stream: ${SOCKETS} sockets across ${ACCOUNTS} accounts (${SOCKETS / ACCOUNTS} per account, one listenKey each), bursts of ${EVENTS} TradeSettled events`,
  );
  console.log(
    `  each event: an executionReport and an outboundAccountInfo to ${SOCKETS / ACCOUNTS} sockets = ${formatNumber(EXPECTED)} frames per burst; 1 warm-up + ${RUNS} measured bursts per side`,
  );
  console.log(
    `  system under test: apps/user-stream (distributed mode: Kafka ${brokers}, Redis, PostgreSQL) on core ${SUT_CORE}; ceiling: a bare ws broadcast server on core ${SUT_CORE}`,
  );
  console.log(
    `  load: this process (setup, then publishing the bursts to Kafka, acks=all, 500 records per publish) and the socket clients on core ${LOAD_CORE}; the Kafka broker is not pinned`,
  );
  console.log(
    `  latency: receipt minus the event's creation time (T of each executionReport); Node ${process.version}; taskset ${taskset() ? 'yes' : 'missing: not pinned'}`,
  );

  const accounts = await setUp(settings);
  console.log(`  set up ${accounts.length} users, API keys and listenKeys`);
  const perAccount = SOCKETS / ACCOUNTS;
  const clients = startIpcWorker('bench/user-stream/stream-clients.ts', LOAD_CORE);

  // The user stream.
  const sut = await startPinnedServer(
    'apps/user-stream/src/main.ts',
    SUT_CORE,
    { ...settings, PORT: String(SUT_PORT), LOG_LEVEL: 'info' },
    '"listening"',
  );
  const urls = accounts.flatMap((a) =>
    Array.from({ length: perAccount }, () => `ws://127.0.0.1:${SUT_PORT}/openapi/ws/${a.listenKey}`),
  );
  console.log(
    `  user-stream: ${(await clients.request<{ connected: number }>({ type: 'connect', urls })).connected} sockets open`,
  );
  const log = new NamespacedEventLog(
    new KafkaEventLog({ brokers: brokers.split(','), clientId: 'bench-user-stream' }),
    settings.EVENT_LOG_NAMESPACE,
  );
  const seqs = new Map(accounts.map((a) => [a.userId, 1001]));
  await log.publish(
    accounts.map((a) => ({
      topic: Topics.ledgerEvents.name,
      key: a.userId,
      value: JSON.stringify(orderPlaced(a, 1001, Date.now())),
    })),
  );
  let n = 0;
  const publishBurst = async (): Promise<number> => {
    for (let i = 0; i < EVENTS; i += 500) {
      const records: OutgoingRecord[] = [];
      for (let j = i; j < Math.min(EVENTS, i + 500); j++) {
        const account = accounts[j % accounts.length]!;
        const seq = seqs.get(account.userId)! + 1;
        seqs.set(account.userId, seq);
        records.push({
          topic: Topics.ledgerEvents.name,
          key: account.userId,
          value: JSON.stringify(tradeSettled(account, seq, n++, Date.now())),
        });
      }
      await log.publish(records);
    }
    return EVENTS;
  };
  const streamRuns = await series('user-stream', clients, publishBurst);
  await clients.request({ type: 'close' });
  await stopServer(sut);
  await log.close();

  // The ceiling.
  const bare = startIpcWorker('bench/user-stream/bare-broadcast-server.ts', SUT_CORE, { BARE_PORT: String(BARE_PORT) });
  await bare.request({ type: 'ready' });
  const bareUrls = accounts.flatMap((a) =>
    Array.from({ length: perAccount }, () => `ws://127.0.0.1:${BARE_PORT}/${a.accountId}`),
  );
  console.log(
    `  bare ws: ${(await clients.request<{ connected: number }>({ type: 'connect', urls: bareUrls })).connected} sockets open`,
  );
  const bareRuns = await series(
    'bare ws',
    clients,
    async (run) =>
      (await bare.request<{ sent: number }>({ type: 'burst', accounts, events: EVENTS, start: run * EVENTS })).sent,
  );
  await clients.request({ type: 'close' });
  await bare.stop();
  await clients.stop();

  console.log('\nmedian (min–max) of the measured bursts:');
  report('user-stream', streamRuns);
  report('bare ws', bareRuns);
  console.log(
    `user-stream / bare ws: frames/s ${formatNumber(median(streamRuns.map((r) => r.framesPerSecond)) / median(bareRuns.map((r) => r.framesPerSecond)), 2)}, ` +
      `p50 latency ${formatNumber(median(streamRuns.map((r) => r.p50)) / Math.max(1, median(bareRuns.map((r) => r.p50))), 1)}×`,
  );
  await dropSchemas(databaseUrl, prefix);
}

async function dropSchemas(url: string, prefix: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ nspname: string }>(
    'SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)',
    [prefix],
  );
  for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  await client.end();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
