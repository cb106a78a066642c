import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPinnedWorker, taskset } from './pinned-child';
import { cpuOfTree } from './process-cpu';
import { startPinnedServer, stopServer } from './pinned-server';
import { formatNumber, formatSpread, median, spread } from './stats';

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const CONNECTIONS = 100;
const PIPELINING = 1;

export interface PresignedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** A request signed by the load worker as it is sent, `{n}` in its query replaced by a counter. */
export interface SignedTemplate {
  apiKey: string;
  secretKey: string;
  method: string;
  path: string;
  query: string;
}

type Requests = PresignedRequest[] | SignedTemplate;

export interface ExchangeBenchmark {
  name: string;
  /** The row label of the exchange's line, e.g. "signed GET /openapi/v1/account". */
  target: string;
  /** Lines describing the configuration that matters, printed before the numbers. */
  describe: string[];
  /** Extra environment of the embedded exchange (limits raised, Kafka, ...). */
  env: Record<string, string>;
  portBase: number;
  /** Requests signed with the demo user's key just before each run. */
  presign(demo: { apiKey: string; secretKey: string }): Requests;
  /** Requests in flight per connection (BENCHMARKS.md: 1 for order entry, 10 for public reads); 1 by default. */
  pipelining?: number;
  /** Fills the exchange's DATA_DIR before it starts (for example, a journal of market events). */
  prepare?(dataDir: string): Promise<void>;
  /** Runs once the exchange serves, before the warm-up (for example, a transfer the requests need). */
  setup?(baseUrl: string, demo: { apiKey: string; secretKey: string }): Promise<void>;
  /** Compare with other requests on the same exchange instead of the hello-world (e.g. spot orders). */
  baseline?: { target: string; presign(demo: { apiKey: string; secretKey: string }): Requests };
  /** More workloads on the same exchange, after the measured runs (the exchange's pid for its CPU). */
  afterRuns?(exchange: {
    url: string;
    pid: number;
    dataDir: string;
    demo: { apiKey: string; secretKey: string };
    baselinePerSec: number;
  }): Promise<void>;
  /** Runs once the exchange stopped (its DATA_DIR is left as it was: the journal can be read). */
  afterStop?(dataDir: string): Promise<void>;
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Requests answered. */
  total: number;
  /** CPU µs of the exchange's process tree per request answered (our runs only). */
  cpuUs?: number;
}

/**
 * The HTTP benchmarks' common shape (../shared/BENCHMARKS.md): the embedded exchange and a bare
 * Fastify hello-world on core 0, autocannon on core 1, a warm-up, then alternating measured runs,
 * printed as min / median / max and the ratio of medians.
 */
export async function runExchangeVsHello(bench: ExchangeBenchmark): Promise<LoadResult[]> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const duration = Number(process.env.BENCH_DURATION_SEC ?? 10);
  const dir = mkdtempSync(join(tmpdir(), `bench-${bench.name}-`));
  chmodSync(dir, 0o755);
  const exchangePort = bench.portBase;
  const helloPort = bench.portBase + 100;
  console.log(`bench/${bench.name}`);
  console.log(
    `  node ${process.version}, ${cpus().length} cores; servers on core ${SERVER_CORE}, autocannon on core ${LOAD_CORE} ${taskset() ? '(taskset)' : '(no taskset: unpinned)'}`,
  );
  const pipelining = bench.pipelining ?? PIPELINING;
  console.log(
    `  ${CONNECTIONS} connections, pipelining ${pipelining}, ${duration} s per run, ${runs} runs after a warm-up; signed requests pre-signed with recvWindow 60000`,
  );
  for (const line of bench.describe) console.log(`  ${line}`);

  const load = (name: string, url: string, requests?: Requests): Promise<LoadResult> =>
    runLoad(dir, name, url, requests, { pipelining, durationSec: duration });
  await bench.prepare?.(join(dir, 'data'));
  let ours: LoadResult[] = [];
  const exchange = await startPinnedServer(
    'apps/exchange/src/main.ts',
    SERVER_CORE,
    {
      PORT: String(exchangePort),
      DATA_DIR: join(dir, 'data'),
      EMBEDDED_PG_PORT: String(exchangePort + 1),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      REDIS_URL: '',
      METRICS_PORT: '0',
      ...bench.env,
    },
    'demo secret key',
  );
  const hello = bench.baseline
    ? undefined
    : await startPinnedServer('bench/support/hello-world-server.ts', SERVER_CORE, { PORT: String(helloPort) }, 'ready');
  try {
    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo.json'), 'utf8')) as {
      apiKey: string;
      secretKey: string;
    };
    const exchangeUrl = `http://127.0.0.1:${exchangePort}`;
    await bench.setup?.(exchangeUrl, demo);
    // The baseline: other requests on the same exchange, or the hello-world's ceiling.
    const other = (name: string) =>
      bench.baseline
        ? load(name, exchangeUrl, bench.baseline.presign(demo))
        : load(name, `http://127.0.0.1:${helloPort}/hello`);
    await load('warm-exchange', exchangeUrl, bench.presign(demo));
    await other('warm-baseline');
    ours = [];
    const ceiling: LoadResult[] = [];
    for (let run = 0; run < runs; run++) {
      const cpuBefore = cpuOfTree(exchange.pid!);
      const result = await load(`exchange-${run}`, exchangeUrl, bench.presign(demo));
      ours.push({ ...result, cpuUs: ((cpuOfTree(exchange.pid!) - cpuBefore) / result.total) * 1e6 });
      ceiling.push(await other(`baseline-${run}`));
    }
    console.log('');
    console.log(`${'target'.padEnd(33)}req/s (median, min–max)        p50 ms   p99 ms   errors+non-2xx`);
    console.log(row(bench.target, ours));
    console.log(row(bench.baseline?.target ?? 'bare Fastify hello-world', ceiling));
    console.log(
      `ratio (median / median): ${formatNumber(median(ours.map((r) => r.requestsPerSec)) / median(ceiling.map((r) => r.requestsPerSec)), 2)}x`,
    );
    console.log(
      `CPU per request of the exchange's process tree: ${formatSpread(spread(ours.map((r) => r.cpuUs!)))} µs`,
    );
    await bench.afterRuns?.({
      url: exchangeUrl,
      pid: exchange.pid!,
      dataDir: join(dir, 'data'),
      demo,
      baselinePerSec: median(ceiling.map((r) => r.requestsPerSec)),
    });
  } finally {
    if (hello) await stopServer(hello);
    await stopServer(exchange);
  }
  await bench.afterStop?.(join(dir, 'data'));
  return ours;
}

/** One autocannon run from its own process on the load core: CONNECTIONS connections against `url`. */
export function runLoad(
  dir: string,
  name: string,
  url: string,
  requests: Requests | undefined,
  options: { pipelining: number; durationSec: number },
): Promise<LoadResult> {
  const file = join(dir, `${name}.json`);
  const what = requests === undefined ? {} : Array.isArray(requests) ? { requests } : { signed: requests };
  writeFileSync(file, JSON.stringify({ url, connections: CONNECTIONS, ...options, ...what }));
  return runPinnedWorker<LoadResult>('bench/support/autocannon-worker.ts', [file], LOAD_CORE);
}

function row(label: string, results: LoadResult[]): string {
  const bad = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  return `${label.padEnd(33)}${formatSpread(spread(results.map((r) => r.requestsPerSec))).padEnd(31)}${formatNumber(median(results.map((r) => r.p50Ms)), 1).padEnd(9)}${formatNumber(median(results.map((r) => r.p99Ms)), 1).padEnd(9)}${bad}`;
}
