// bench/order-entry: signed POST /openapi/v1/order (the whole pipeline: gateway → ledger reserve →
// engine → ledger outcome → answer) on the embedded default, or over Kafka with BENCH_KAFKA=1 and
// KAFKA_BROKERS, against a bare Fastify hello-world in the same run. Run: `npm run bench:order-entry`.
// The orders are IOC BUYs below the market: each goes through every step and ends CANCELED, so
// funds are released and the run can last as long as wanted.
import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { startPinnedServer, stopServer } from '../support/pinned-server';
import { formatNumber, formatSpread, median, spread } from '../support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION_SEC ?? 10);
const CONNECTIONS = 100;
const PIPELINING = 1;
const SERVER_CORE = 0;
const LOAD_CORE = 1;

interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * Signed just before each run: timestamps a little in the past stay valid for the 60 s recvWindow.
 * A few hundred distinct requests, cycled: autocannon itself stalls (timeouts) on arrays of 10^4.
 */
function presign(apiKey: string, secretKey: string, count: number): { method: string; path: string; headers: Record<string, string> }[] {
  const start = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const query = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01&recvWindow=60000&timestamp=${start - (i % 1000)}`;
    const signature = createHmac('sha256', secretKey).update(query).digest('hex');
    return { method: 'POST', path: `/openapi/v1/order?${query}&signature=${signature}`, headers: { 'X-SERVICE-KEY': apiKey } };
  });
}

async function load(dir: string, name: string, url: string, requests?: unknown[]): Promise<LoadResult> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ url, connections: CONNECTIONS, pipelining: PIPELINING, durationSec: DURATION, requests }));
  return runPinnedWorker<LoadResult>('bench/support/autocannon-worker.ts', [file], LOAD_CORE);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-orders-'));
  const kafka = process.env.BENCH_KAFKA === '1' && process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS : '';
  chmodSync(dir, 0o755);
  const exchangePort = 47_400;
  const helloPort = 47_500;
  console.log('bench/order-entry');
  console.log(`  node ${process.version}, ${cpus().length} cores; servers on core ${SERVER_CORE}, autocannon on core ${LOAD_CORE} ${taskset() ? '(taskset)' : '(no taskset: unpinned)'}`);
  console.log(`  ${CONNECTIONS} connections, pipelining ${PIPELINING}, ${DURATION} s per run, ${RUNS} runs after a warm-up; requests pre-signed with recvWindow 60000`);
  console.log(`  exchange: ${kafka ? `all services in one process on Kafka ${kafka}` : 'embedded default (embedded log with fsync always)'}, embedded PostgreSQL; weight and ORDERS limits raised to 10^9`);
  console.log('  each request: POST /openapi/v1/order BTCUSDT BUY LIMIT IOC 0.01 @ 1000 (below the market: ends CANCELED, funds released)');

  const exchange = await startPinnedServer(
    'apps/exchange/src/main.ts',
    SERVER_CORE,
    {
      PORT: String(exchangePort),
      DATA_DIR: join(dir, 'data'),
      EMBEDDED_PG_PORT: String(exchangePort + 1),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
      RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
      RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
      DATABASE_URL: '',
      KAFKA_BROKERS: kafka,
      EVENT_LOG_NAMESPACE: kafka ? `bench${Date.now()}` : '',
      REDIS_URL: '',
    },
    'demo secret key',
  );
  const hello = await startPinnedServer('bench/support/hello-world-server.ts', SERVER_CORE, { PORT: String(helloPort) }, 'ready');
  try {
    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo.json'), 'utf8')) as { apiKey: string; secretKey: string };
    await load(dir, 'warm-exchange', `http://127.0.0.1:${exchangePort}`, presign(demo.apiKey, demo.secretKey, 500));
    await load(dir, 'warm-hello', `http://127.0.0.1:${helloPort}/hello`);
    const ours: LoadResult[] = [];
    const ceiling: LoadResult[] = [];
    for (let run = 0; run < RUNS; run++) {
      ours.push(await load(dir, `exchange-${run}`, `http://127.0.0.1:${exchangePort}`, presign(demo.apiKey, demo.secretKey, 500)));
      ceiling.push(await load(dir, `hello-${run}`, `http://127.0.0.1:${helloPort}/hello`));
    }
    const bad = ours.reduce((n, r) => n + r.errors + r.non2xx, 0);
    console.log('');
    console.log('target                           req/s (median, min–max)        p50 ms   p99 ms   errors+non-2xx');
    console.log(`signed POST /openapi/v1/order    ${formatSpread(spread(ours.map((r) => r.requestsPerSec))).padEnd(30)} ${formatNumber(median(ours.map((r) => r.p50Ms)), 1).padEnd(8)} ${formatNumber(median(ours.map((r) => r.p99Ms)), 1).padEnd(8)} ${bad}`);
    console.log(`bare Fastify hello-world         ${formatSpread(spread(ceiling.map((r) => r.requestsPerSec))).padEnd(30)} ${formatNumber(median(ceiling.map((r) => r.p50Ms)), 1).padEnd(8)} ${formatNumber(median(ceiling.map((r) => r.p99Ms)), 1).padEnd(8)} ${ceiling.reduce((n, r) => n + r.errors + r.non2xx, 0)}`);
    console.log(`ratio (median / median): ${formatNumber(median(ours.map((r) => r.requestsPerSec)) / median(ceiling.map((r) => r.requestsPerSec)), 2)}x`);
  } finally {
    await stopServer(hello);
    await stopServer(exchange);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
