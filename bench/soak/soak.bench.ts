// bench/soak: does the embedded default's cost follow what is live, or how long it has run?
// Crossing orders (each pair a trade) for SOAK_MINUTES; every 10 s the exchange's RSS, heap used,
// journal bytes and PostgreSQL bytes; then growth per 1M orders, a restart after a tenth of the
// history against a restart after all of it (time to ready, RSS), and an idle exchange's growth per
// hour. Run: `npm run bench:soak` (SOAK_MINUTES=30, SOAK_CONCURRENCY=40, SOAK_ACCOUNTS=2 per loop,
// SOAK_IDLE_SEC=120, SOAK_GC_SAMPLE_SEC=60, SOAK_HEAP_SNAPSHOTS=0). Not a test: it prints numbers for
// the README and the issue notes.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DevToolsSession, type HeapAfterGc } from '../support/devtools-session';
import { taskset } from '../support/pinned-child';
import { startPinnedServer, stopServer } from '../support/pinned-server';
import { BENCH_PORTS } from '../support/ports';
import { formatNumber, linearFit, twoFactorFit } from '../support/stats';
import type { CrossingLoadJob, CrossingLoadResult, SoakAccount } from './crossing-load-worker';

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 40);
// A pair of accounts per loop: loops sharing an account meet themselves on the book, and what
// self-trade prevention leaves resting would grow the open orders with the run.
const accountCount = Number(process.env.SOAK_ACCOUNTS ?? 2 * concurrency);
const idleSec = Number(process.env.SOAK_IDLE_SEC ?? 120);
const port = Number(process.env.SOAK_PORT ?? BENCH_PORTS.soak);
// Every SOAK_GC_SAMPLE_SEC a full collection in the exchange, over the DevTools protocol, then its heap
// used: what is live, where the 10 s samples see live data plus uncollected garbage. 0 turns it off
// (and the exchange runs without --inspect). Collecting a heap of a few hundred MB pauses the exchange
// for up to a second, so not every 10 s.
const gcSampleSec = Number(process.env.SOAK_GC_SAMPLE_SEC ?? 60);
const inspectPort = port + 3;
// SOAK_HEAP_SNAPSHOTS=1: a heap snapshot at the end of each load phase (the load stopped, before the
// restart), into the run's folder: compare them in Chrome DevTools to see what grew with the history.
const heapSnapshots = process.env.SOAK_HEAP_SNAPSHOTS === '1' && gcSampleSec > 0;
// What the exchange keeps per recent order, for as long: the retry window (RETRY_WINDOW_MS, passed on
// to the exchange) and the replay guard's signatures (the load signs with a recvWindow of 60 s).
const recentWindowSec = Math.max(60, Number(process.env.RETRY_WINDOW_MS ?? 600_000) / 1000);
const adminToken = 'soak-operator-token-0123456789';
const root = resolve(__dirname, '../..');
const MB = 1024 * 1024;
const ORDER_QUANTITY = '0.001';

interface Sample {
  atSec: number;
  orders: number;
  rssBytes: number;
  heapUsedBytes: number;
  journalBytes: number;
  postgresBytes: number;
  /** Orders resting on the soak's book, from its public depth: live state, which may grow only with them. */
  openOrders: number;
}

/** A sample taken after a full collection: the heap that is live. */
interface GcSample extends HeapAfterGc {
  atSec: number;
  orders: number;
  rssBytes: number;
}

interface Restart {
  readyMs: number;
  rssBytes: number;
  heapAfterGc?: HeapAfterGc;
}

/** The exchange's process and, when heap sampling is on, a DevTools session with it. */
interface Exchange {
  child: ChildProcess;
  devtools?: DevToolsSession;
}

const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
chmodSync(dir, 0o755);
const dataDir = join(dir, 'data');
const exchangeEnv = {
  PORT: String(port),
  DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: String(port + 1),
  METRICS_PORT: String(port + 2),
  ADMIN_TOKEN: adminToken,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  REDIS_URL: '',
  RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
  RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
};

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function createTrader(index: number): Promise<SoakAccount> {
  const user = await admin<{ accounts: { accountId: string; accountType: number; accountIndex: number }[] }>(
    'POST',
    '/admin/v1/users',
    { name: `soak-${index}` },
  );
  const accountId = user.accounts.find((a) => a.accountType === 1 && a.accountIndex === 0)!.accountId;
  const key = await admin<SoakAccount>('POST', '/admin/v1/api-keys', { accountId, permissions: ['read', 'trade'] });
  await admin('POST', '/admin/v1/deposits', { accountId, asset: 'USDT', amount: '100000000' });
  await admin('POST', '/admin/v1/deposits', { accountId, asset: 'BTC', amount: '10000' });
  return { apiKey: key.apiKey, secretKey: key.secretKey };
}

function bytesOf(path: string): number {
  if (!existsSync(path)) return 0;
  return Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
}

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** Heap used from the process's Prometheus metrics (on their own port), else NaN. */
async function heapUsedOf(): Promise<number> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port + 2}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
    return Number(line?.split(' ').pop());
  } catch {
    return NaN;
  }
}

async function openOrdersOnTheBook(): Promise<number> {
  try {
    const depth = (await (await fetch(`${base}/openapi/quote/v1/depth?symbol=BTCUSDT&limit=100`)).json()) as {
      bids: [string, string][];
      asks: [string, string][];
    };
    const quantity = [...depth.bids, ...depth.asks].reduce((sum, [, q]) => sum + Number(q), 0);
    return Math.round(quantity / Number(ORDER_QUANTITY));
  } catch {
    return NaN;
  }
}

async function sample(exchange: Exchange, atSec: number, orders: number): Promise<Sample> {
  return {
    atSec,
    orders,
    rssBytes: rssOf(exchange.child.pid!),
    heapUsedBytes: await heapUsedOf(),
    journalBytes: bytesOf(join(dataDir, 'event-log')),
    postgresBytes: bytesOf(join(dataDir, 'postgres')),
    openOrders: await openOrdersOnTheBook(),
  };
}

function printSample(s: Sample): void {
  const mb = (n: number): string => formatNumber(n / MB, 1).padStart(9);
  console.log(
    `${String(s.atSec).padStart(6)} s ${formatNumber(s.orders).padStart(11)} orders  RSS ${mb(s.rssBytes)} MB  heap ${mb(s.heapUsedBytes)} MB  journal ${mb(s.journalBytes)} MB  PostgreSQL ${mb(s.postgresBytes)} MB  open orders ${formatNumber(s.openOrders).padStart(6)}`,
  );
}

async function gcSample(exchange: Exchange, atSec: number, orders: number): Promise<GcSample> {
  const heap = await exchange.devtools!.heapAfterGc();
  return { atSec, orders, rssBytes: rssOf(exchange.child.pid!), ...heap };
}

function printGcSample(s: GcSample): void {
  const mb = (n: number): string => formatNumber(n / MB, 1).padStart(7);
  console.log(
    `${String(s.atSec).padStart(6)} s ${formatNumber(s.orders).padStart(11)} orders  heap after full GC ${mb(s.heapUsedBytes)} MB  external ${mb(s.externalBytes)} MB  RSS ${mb(s.rssBytes)} MB  (GC pause ${formatNumber(s.pauseMs)} ms)`,
  );
}

async function startExchange(): Promise<Exchange> {
  const inspect = gcSampleSec > 0 ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  const child = await startPinnedServer(
    'apps/exchange/src/main.ts',
    SERVER_CORE,
    exchangeEnv,
    'demo secret key',
    inspect,
  );
  return { child, devtools: inspect.length > 0 ? await DevToolsSession.connect(inspectPort) : undefined };
}

async function stopExchange(exchange: Exchange): Promise<void> {
  exchange.devtools?.close();
  await stopServer(exchange.child);
}

async function restart(exchange: Exchange): Promise<{ exchange: Exchange; restart: Restart }> {
  await stopExchange(exchange);
  const started = Date.now();
  const next = await startExchange();
  const readyMs = Date.now() - started;
  await new Promise((done) => setTimeout(done, 5000));
  const rssBytes = rssOf(next.child.pid!);
  return { exchange: next, restart: { readyMs, rssBytes, heapAfterGc: await next.devtools?.heapAfterGc() } };
}

/**
 * One load phase in a pinned process, sampled every 10 s and, with heap sampling on, after a full
 * collection every `gcSampleSec`; returns the samples it took.
 */
async function loadPhase(
  exchange: Exchange,
  accounts: SoakAccount[],
  durationSec: number,
  ordersBefore: number,
  clockSec: number,
): Promise<{ samples: Sample[]; gcSamples: GcSample[]; result: CrossingLoadResult }> {
  const jobFile = join(dir, `load-${clockSec}.json`);
  const job: CrossingLoadJob = {
    url: base,
    accounts,
    concurrency,
    durationSec,
    symbol: 'BTCUSDT',
    price: '30000',
    quantity: ORDER_QUANTITY,
  };
  writeFileSync(jobFile, JSON.stringify(job));
  const node = [process.execPath, 'scripts/run.js', 'bench/soak/crossing-load-worker.ts', jobFile];
  const command = taskset() ? [taskset()!, '-c', String(LOAD_CORE), ...node] : node;
  const worker = spawn(command[0]!, command.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let answered = 0;
  let last = '';
  createInterface({ input: worker.stdout }).on('line', (line) => {
    if (line.startsWith('progress ')) answered = Number(line.split(' ')[1]);
    else if (line) last = line;
  });
  const exited = new Promise<number | null>((done) => worker.on('exit', done));
  const samples: Sample[] = [];
  const gcSamples: GcSample[] = [];
  const started = Date.now();
  const now = (): number => clockSec + Math.round((Date.now() - started) / 1000);
  const timer = setInterval(() => {
    void sample(exchange, now(), ordersBefore + answered).then((s) => {
      samples.push(s);
      printSample(s);
    });
  }, 10_000);
  let collecting: Promise<void> | undefined;
  const gcTimer =
    exchange.devtools &&
    setInterval(() => {
      // A collection slower than the interval (a loaded machine) is not stacked on by the next.
      collecting ??= gcSample(exchange, now(), ordersBefore + answered)
        .then((s) => {
          gcSamples.push(s);
          printGcSample(s);
        })
        .finally(() => (collecting = undefined));
    }, gcSampleSec * 1000);
  const code = await exited;
  clearInterval(timer);
  if (gcTimer) clearInterval(gcTimer);
  await collecting;
  if (code !== 0) throw new Error(`load worker exited with ${code}`);
  if (heapSnapshots) {
    const path = join(dir, `heap-after-${ordersBefore + answered}-orders.heapsnapshot`);
    await exchange.devtools!.writeHeapSnapshot(path);
    console.log(`heap snapshot after ${formatNumber(ordersBefore + answered)} orders: ${path}`);
  }
  return { samples, gcSamples, result: JSON.parse(last) as CrossingLoadResult };
}

/**
 * Waits (about 5 minutes at most) until the journal stops shrinking: after a restart the log's maintenance
 * compresses the segments sealed since its last run, and an idle phase measured meanwhile shows
 * that shrinking instead of what an idle exchange adds.
 */
async function untilMaintenanceSettles(exchange: Exchange, orders: number): Promise<number> {
  // Longer than one maintenance interval: a step that did not shrink saw a run with nothing left to compress.
  const stepSec = Math.ceil(Number(process.env.EVENT_LOG_MAINTENANCE_MS ?? 60_000) / 1000) + 10;
  let before = (await sample(exchange, 0, orders)).journalBytes;
  for (let waited = stepSec; waited <= 300; waited += stepSec) {
    await new Promise((done) => setTimeout(done, stepSec * 1000));
    const now = (await sample(exchange, waited, orders)).journalBytes;
    if (now >= before) return waited;
    before = now;
  }
  return 300;
}

function perMillion(from: Sample, to: Sample, pick: (s: Sample) => number): number {
  return ((pick(to) - pick(from)) / Math.max(1, to.orders - from.orders)) * 1e6;
}

/**
 * The lowest heap sample of the first and of the last third: heap used swings by hundreds of MB
 * between collections, so its floors, not single samples, say whether what is live grows.
 */
function heapFloors(samples: Sample[]): { first: Sample; last: Sample } | undefined {
  const third = Math.floor(samples.length / 3);
  if (third < 2) return undefined;
  const lowest = (part: Sample[]): Sample => part.reduce((a, b) => (b.heapUsedBytes < a.heapUsedBytes ? b : a));
  return { first: lowest(samples.slice(0, third)), last: lowest(samples.slice(-third)) };
}

/** Orders answered by `atSec`, interpolated between the 10 s samples (0 before the first). */
function ordersAt(samples: Sample[], atSec: number): number {
  const after = samples.findIndex((s) => s.atSec >= atSec);
  if (after === -1) return samples[samples.length - 1]?.orders ?? 0;
  const next = samples[after]!;
  const previous = after > 0 ? samples[after - 1]! : { atSec: 0, orders: 0 };
  if (next.atSec === previous.atSec) return next.orders;
  return previous.orders + ((next.orders - previous.orders) * (atSec - previous.atSec)) / (next.atSec - previous.atSec);
}

function heapAfterRestart(restart: Restart): string {
  const heap = restart.heapAfterGc;
  return heap
    ? `, heap after full GC ${formatNumber(heap.heapUsedBytes / MB, 1)} MB (external ${formatNumber(heap.externalBytes / MB, 1)} MB)`
    : '';
}

/**
 * Growth per 1M orders of the after-GC heap, external memory and RSS: the slope of a least-squares
 * line over every steady-state sample, so one sample's noise moves it little (± is its standard error).
 */
function printHeapFit(gcSamples: GcSample[], samples: Sample[]): void {
  if (gcSamples.length < 3) {
    if (gcSampleSec > 0) console.log(`heap after full GC: ${gcSamples.length} steady-state samples, too few for a fit`);
    return;
  }
  const perMillionOrders = (pick: (s: GcSample) => number): string => {
    const fit = linearFit(gcSamples.map((s) => ({ x: s.orders, y: pick(s) })));
    return `${formatNumber((fit.slope * 1e6) / MB, 1)} ± ${formatNumber((fit.slopeError * 1e6) / MB, 1)} MB`;
  };
  const first = gcSamples[0]!;
  const last = gcSamples[gcSamples.length - 1]!;
  console.log(
    `heap after full GC, linear fit of ${gcSamples.length} samples over the steady state (${formatNumber(first.orders)} → ${formatNumber(last.orders)} orders, ${formatNumber(first.heapUsedBytes / MB, 1)} → ${formatNumber(last.heapUsedBytes / MB, 1)} MB): ${perMillionOrders((s) => s.heapUsedBytes)} per 1M orders (goal ≤ 100); external ${perMillionOrders((s) => s.externalBytes)}, RSS ${perMillionOrders((s) => s.rssBytes)} per 1M orders`,
  );
  // The load's rate swings on a shared machine, and with it what the windows hold: fitted against
  // both, the heap's growth with the history is told from its rise and fall with the windows.
  const split = twoFactorFit(
    gcSamples.map((s) => ({
      x1: s.orders,
      x2: s.orders - ordersAt(samples, s.atSec - recentWindowSec),
      y: s.heapUsedBytes,
    })),
  );
  console.log(
    `heap after full GC against both the orders so far and those of the last ${formatNumber(recentWindowSec)} s (the retry window and the replay guard): ${formatNumber((split.slopes[0] * 1e6) / MB, 1)} ± ${formatNumber((split.errors[0] * 1e6) / MB, 1)} MB per 1M orders of history, ${formatNumber(split.slopes[1])} ± ${formatNumber(split.errors[1])} B per order within the window`,
  );
  const pauses = gcSamples.map((s) => s.pauseMs);
  console.log(
    `full-GC pauses the sampling cost the exchange: ${formatNumber(Math.min(...pauses))}–${formatNumber(Math.max(...pauses))} ms`,
  );
}

async function main(): Promise<void> {
  const totalSec = minutes * 60;
  const firstSec = Math.max(30, Math.round(totalSec / 10));
  console.log('bench/soak');
  console.log(
    `  node ${process.version}, ${cpus().length} cores; exchange on core ${SERVER_CORE}, load on core ${LOAD_CORE} ${taskset() ? '(taskset)' : '(no taskset: unpinned)'}`,
  );
  console.log(
    `  embedded default, fsync always; ${concurrency} loops over ${accountCount} accounts, crossing BTCUSDT LIMIT 0.001 @ 30000, maker GTC and taker IOC (each pair a trade), fresh signatures`,
  );
  console.log(
    `  ${minutes} min of load: ${firstSec} s, restart, ${totalSec - firstSec} s, restart; then ${idleSec} s idle; DATA_DIR ${dataDir}`,
  );
  if (gcSampleSec > 0)
    console.log(
      `  every ${gcSampleSec} s a full GC in the exchange (DevTools protocol on 127.0.0.1:${inspectPort}), then heap used${heapSnapshots ? '; heap snapshots at the end of each load phase' : ''}`,
    );
  let exchange = await startExchange();
  try {
    const accounts = await Promise.all(Array.from({ length: accountCount }, (_, i) => createTrader(i)));
    const first = await loadPhase(exchange, accounts, firstSec, 0, 0);
    const early = await restart(exchange);
    exchange = early.exchange;
    console.log(
      `restart after ${formatNumber(first.result.answered)} orders: ready in ${formatNumber(early.restart.readyMs)} ms, RSS ${formatNumber(early.restart.rssBytes / MB, 1)} MB${heapAfterRestart(early.restart)}`,
    );
    const second = await loadPhase(exchange, accounts, totalSec - firstSec, first.result.answered, firstSec);
    const late = await restart(exchange);
    exchange = late.exchange;
    const orders = first.result.answered + second.result.answered;
    console.log(
      `restart after ${formatNumber(orders)} orders: ready in ${formatNumber(late.restart.readyMs)} ms, RSS ${formatNumber(late.restart.rssBytes / MB, 1)} MB${heapAfterRestart(late.restart)}`,
    );

    const settledAfterSec = await untilMaintenanceSettles(exchange, orders);
    console.log(`the log's maintenance settled ${settledAfterSec} s after the restart (its journal stopped shrinking)`);
    const idleFrom = await sample(exchange, 0, orders);
    await new Promise((done) => setTimeout(done, idleSec * 1000));
    const idleTo = await sample(exchange, idleSec, orders);
    const idlePerHour =
      ((idleTo.journalBytes + idleTo.postgresBytes - idleFrom.journalBytes - idleFrom.postgresBytes) / idleSec) * 3600;

    // Growth is taken over the second phase after its first minute: past warm-up and the restart.
    const past = second.samples.filter((s) => s.atSec >= firstSec + 60);
    const steady = past.length >= 2 ? past : second.samples;
    const from = steady[0]!;
    const to = steady[steady.length - 1]!;
    const all = [...first.samples, ...second.samples];
    const lastSample = all[all.length - 1]!;
    console.log('');
    console.log(
      `orders answered ${formatNumber(orders)} (filled ${formatNumber(first.result.filled + second.result.filled)}, failed ${first.result.failed + second.result.failed}${(first.result.firstFailure ?? second.result.firstFailure) ? `: ${first.result.firstFailure ?? second.result.firstFailure}` : ''}), ${formatNumber(orders / totalSec)} orders/s`,
    );
    console.log(
      `per 1M orders (steady state, ${formatNumber(to.orders - from.orders)} orders): RSS ${formatNumber(perMillion(from, to, (s) => s.rssBytes) / MB, 1)} MB (goal ≤ 100), heap ${formatNumber(perMillion(from, to, (s) => s.heapUsedBytes) / MB, 1)} MB`,
    );
    console.log(
      `open orders on the book ${formatNumber(from.openOrders)} → ${formatNumber(to.openOrders)} over the steady state (live state: what they hold is not growth with history)`,
    );
    printHeapFit(
      second.gcSamples.filter((s) => s.atSec >= firstSec + 60),
      [...all].sort((a, b) => a.atSec - b.atSec),
    );
    const floors = heapFloors(steady);
    if (floors)
      console.log(
        `heap floor (lowest sample, what survives a GC) ${formatNumber(floors.first.heapUsedBytes / MB, 1)} MB in the first third of the steady state, ${formatNumber(floors.last.heapUsedBytes / MB, 1)} MB in the last: ${formatNumber(perMillion(floors.first, floors.last, (s) => s.heapUsedBytes) / MB, 1)} MB per 1M orders (RSS follows V8's high-water mark, not what is live)`,
      );
    console.log(
      `journal ${formatNumber(perMillion(from, to, (s) => s.journalBytes) / 1e6)} B/order (goal ≤ 2048), PostgreSQL ${formatNumber(perMillion(from, to, (s) => s.postgresBytes) / 1e6)} B/order (goal ≤ 4096) in the steady state`,
    );
    console.log(
      `over the whole run, fixed costs included (PostgreSQL's WAL, the outbox's high-water mark): journal ${formatNumber(lastSample.journalBytes / Math.max(1, lastSample.orders))} B/order, PostgreSQL ${formatNumber(lastSample.postgresBytes / Math.max(1, lastSample.orders))} B/order`,
    );
    console.log(
      `restart ratio (after all / after a tenth): time ${formatNumber(late.restart.readyMs / early.restart.readyMs, 2)}x, RSS ${formatNumber(late.restart.rssBytes / early.restart.rssBytes, 2)}x (goal ≤ 1.5x)`,
    );
    console.log(
      `idle growth: ${formatNumber(idlePerHour / MB, 2)} MB/hour of journal + PostgreSQL (goal ≤ 1), measured over ${idleSec} s`,
    );
  } finally {
    await stopExchange(exchange);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
