// The workloads bench:order-entry runs after its IOC runs against the hello-world: crossing orders
// from several accounts (every pair a trade) and one order at a time, each with the CPU the
// exchange's process tree spent per order; then, once the exchange stopped, every workload's hops.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedEventLog, type EventLog, KafkaEventLog, NamespacedEventLog } from '@exchange/messaging';
import { runPinnedWorker } from '../support/pinned-child';
import { formatNumber, formatSpread, median, spread } from '../support/stats';
import type { OrderClientJob, OrderClientResult } from './order-client-worker';
import { formatHops, hopsOf, orderTimes } from './pipeline-hops';

const LOAD_CORE = 1;
const CROSSING_LOOPS = 100;
const CROSSING_ACCOUNTS = 20;

export interface WorkloadSettings {
  runs: number;
  durationSec: number;
  singleOrders: number;
  adminToken: string;
}

/** Where the run's journal is read from for the hops: the embedded log's folder, or a Kafka namespace. */
export type JournalSource = { dataDir: string } | { brokers: string; namespace: string };

/** The system under test, as the workloads see it. */
export interface ExchangeUnderTest {
  url: string;
  /** CPU seconds the system under test has spent so far (all its processes). */
  cpuSeconds: () => number;
  /** A folder for the order clients' job files. */
  workDir: string;
  demo: { apiKey: string; secretKey: string };
  /** The crossing workload's accounts, when made before the runs (crossingTraders). */
  traders?: { apiKey: string; secretKey: string }[];
  /** The hello-world's rate in the same run; NaN where there is none. */
  baselinePerSec: number;
}

export type WorkloadResult = OrderClientResult & { cpuUs: number };

/** What the comparison of the two modes needs from the workloads. */
export interface WorkloadSummary {
  crossing: WorkloadResult[];
  single: WorkloadResult[];
}

/** Times the order clients kept, by request id, for the hops. */
const clientTimes: Record<string, [number, number]> = {};

async function admin<T>(url: string, token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function trader(
  url: string,
  token: string,
  index: number,
): Promise<{ apiKey: string; secretKey: string }> {
  const user = await admin<{ accounts: { accountId: string; accountType: number; accountIndex: number }[] }>(
    url,
    token,
    '/admin/v1/users',
    { name: `bench-${index}` },
  );
  const accountId = user.accounts.find((a) => a.accountType === 1 && a.accountIndex === 0)!.accountId;
  const key = await admin<{ apiKey: string; secretKey: string }>(url, token, '/admin/v1/api-keys', {
    accountId,
    permissions: ['read', 'trade'],
  });
  await admin(url, token, '/admin/v1/deposits', { accountId, asset: 'USDT', amount: '100000000' });
  await admin(url, token, '/admin/v1/deposits', { accountId, asset: 'BTC', amount: '10000' });
  return key;
}

/** The accounts the crossing workload trades between, funded. */
export async function crossingTraders(url: string, token: string): Promise<{ apiKey: string; secretKey: string }[]> {
  const accounts: { apiKey: string; secretKey: string }[] = [];
  for (let i = 0; i < CROSSING_ACCOUNTS; i++) accounts.push(await trader(url, token, i));
  return accounts;
}

async function clientRun(exchange: ExchangeUnderTest, job: OrderClientJob): Promise<WorkloadResult> {
  const file = join(exchange.workDir, `${job.idPrefix}.json`);
  writeFileSync(file, JSON.stringify(job));
  const before = exchange.cpuSeconds();
  const result = await runPinnedWorker<OrderClientResult>(
    'bench/order-entry/order-client-worker.ts',
    [file],
    LOAD_CORE,
  );
  Object.assign(clientTimes, result.times);
  return { ...result, cpuUs: ((exchange.cpuSeconds() - before) / result.answered) * 1e6 };
}

/**
 * Waits (at most 60 s) until the exchange is idle: after a burst, the PostgreSQL projection and
 * the event log's maintenance catch up for seconds, and one order at a time measured meanwhile
 * would time that catch-up, not the order. Idle is under 15% of a core over half a second, or,
 * for the distributed mode, whose consumers poll the broker even when nothing happens, a use below
 * half a core that has stopped falling over three half-seconds.
 */
async function untilIdle(exchange: ExchangeUnderTest): Promise<number> {
  const start = Date.now();
  const uses: number[] = [];
  for (let before = exchange.cpuSeconds(); Date.now() - start < 60_000;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = exchange.cpuSeconds();
    const use = (now - before) / 0.5;
    before = now;
    uses.push(use);
    const last = uses.slice(-3);
    const flat =
      last.length === 3 &&
      Math.max(...last) < 0.5 &&
      Math.max(...last) - Math.min(...last) < 0.05 + 0.2 * Math.max(...last);
    if (use < 0.15 || flat) break;
  }
  return Date.now() - start;
}

function row(label: string, results: WorkloadResult[]): string {
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const first = results.find((r) => r.firstFailure)?.firstFailure;
  return `${label.padEnd(33)}${formatSpread(spread(results.map((r) => r.ordersPerSec))).padEnd(31)}${formatNumber(median(results.map((r) => r.p50Ms)), 1).padEnd(9)}${formatNumber(median(results.map((r) => r.p99Ms)), 1).padEnd(9)}${failed}${first ? ` (${first})` : ''}  CPU ${formatSpread(spread(results.map((r) => r.cpuUs)))} µs/order`;
}

/** Crossing orders, then one order at a time, on the running exchange. */
export async function runOrderWorkloads(
  settings: WorkloadSettings,
  exchange: ExchangeUnderTest,
): Promise<WorkloadSummary> {
  // Request ids repeat from one exchange to the next in a run: keep only this one's.
  for (const id of Object.keys(clientTimes)) delete clientTimes[id];
  const accounts = exchange.traders ?? (await crossingTraders(exchange.url, settings.adminToken));
  const crossing = (prefix: string, durationSec: number) =>
    clientRun(exchange, {
      mode: 'crossing',
      url: exchange.url,
      accounts,
      concurrency: CROSSING_LOOPS,
      durationSec,
      orders: 0,
      idPrefix: prefix,
    });
  await crossing('xw', Math.min(3, settings.durationSec));
  const crossed = [];
  for (let run = 0; run < settings.runs; run++) crossed.push(await crossing(`x${run}-`, settings.durationSec));
  const settledMs = await untilIdle(exchange);
  const single = [
    await clientRun(exchange, {
      mode: 'single',
      url: exchange.url,
      accounts: [exchange.demo],
      concurrency: 1,
      durationSec: 0,
      orders: settings.singleOrders,
      idPrefix: 's-',
    }),
  ];
  console.log('');
  console.log(
    `crossing: ${CROSSING_LOOPS} loops (one request in flight each) over ${CROSSING_ACCOUNTS} accounts, BTCUSDT LIMIT GTC 0.001 @ 30000, maker then taker (each pair a trade), signed as sent; one at a time: IOC below the market, ${settings.singleOrders} orders`,
  );
  console.log(`${'workload'.padEnd(33)}orders/s (median, min–max)     p50 ms   p99 ms   failed`);
  console.log(row('crossing orders (trades)', crossed));
  console.log(
    `  (one at a time started ${formatNumber(settledMs / 1000, 1)} s after the crossing, once the exchange was idle)`,
  );
  console.log(row('one order at a time', single));
  if (Number.isFinite(exchange.baselinePerSec))
    console.log(
      `crossing / hello-world (median / median): ${formatNumber(median(crossed.map((r) => r.ordersPerSec)) / exchange.baselinePerSec, 2)}x`,
    );
  return { crossing: crossed, single };
}

/** Reads the journal the run left and prints each workload's hops. */
export async function printHops(source: JournalSource): Promise<void> {
  const log: EventLog =
    'namespace' in source
      ? new NamespacedEventLog(
          new KafkaEventLog({ brokers: source.brokers.split(','), clientId: 'bench-hops' }),
          source.namespace,
        )
      : await EmbeddedEventLog.open({
          dir: join(source.dataDir, 'event-log'),
          fsync: 'never',
          maintenanceIntervalMs: 0,
        });
  try {
    const times = await orderTimes(log);
    console.log('');
    console.log(
      `pipeline hops (from the records' append times and correlation ids): gateway = send → command journaled, ledger → engine's command journaled, engine → first order event, ledger' → last ledger event, reply → answer received`,
    );
    console.log(`  IOC (100 connections):  ${formatHops(hopsOf(times, (id) => !/^(x|s-)/.test(id)))}`);
    console.log(`  crossing:               ${formatHops(hopsOf(times, (id) => /^x\d/.test(id), clientTimes))}`);
    console.log(`  one at a time:          ${formatHops(hopsOf(times, (id) => id.startsWith('s-'), clientTimes))}`);
  } finally {
    await log.close();
  }
}
