// bench/market-data: public market data on the embedded default with limits raised.
// 1. GET depth (limit 100), the all-symbol 24hr ticker and a 1000-candle klines query, each
//    against a bare Fastify hello-world (autocannon, 100 connections, pipelining 10).
// 2. depthDiff fan-out to 1,000 subscribed sockets while orders change the book, against a bare
//    `ws` server broadcasting frames of the same shape to as many sockets.
// Run: `npm run bench:market-data` (BENCH_RUNS, BENCH_DURATION_SEC, BENCH_SOCKETS to change).
import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExchangeBenchmark, runExchangeVsHello } from '../support/exchange-vs-hello';
import { runPinnedWorker } from '../support/pinned-child';
import { startPinnedServer, stopServer } from '../support/pinned-server';
import { randomPortBlock } from '../support/ports';
import { formatNumber, formatSpread, median, spread } from '../support/stats';
import { seedMarketJournal } from './seed-market-journal';

/** A random block (bench/support/ports.ts): several runs of this benchmark may overlap. */
const portBase = randomPortBlock();
const limitsRaised = {
  RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ORDERS_PER_SECOND: '1000000',
  RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
  WS_MAX_SOCKETS_PER_IP: '1000000',
};
const describe = [
  'exchange: embedded default (embedded log with fsync always, embedded PostgreSQL), every service in one process; ' +
    Object.entries(limitsRaised)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  'market data seeded before start: BTCUSDT and ETHBTC books of 500 levels a side and 1,500 one-minute trades each',
];

function readBench(name: string, target: string, path: string, portBase: number): ExchangeBenchmark {
  return {
    name: `market-data-${name}`,
    target,
    describe,
    env: limitsRaised,
    portBase,
    pipelining: 10,
    prepare: async (dataDir) => void (await seedMarketJournal(dataDir)),
    presign: () => [{ method: 'GET', path, headers: {} }],
  };
}

interface FanoutResult {
  messagesPerSec: number;
  framesPerSocketPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

async function fanout(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const duration = Number(process.env.BENCH_DURATION_SEC ?? 10);
  const sockets = Number(process.env.BENCH_SOCKETS ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-market-data-fanout-'));
  chmodSync(dir, 0o755);
  const port = portBase + 30;
  console.log('\nbench/market-data fan-out');
  console.log(
    `  ${sockets} sockets subscribed to diffDepth ETHUSDT in one process on core 1; server on core 0; ${duration} s per run, ${runs} runs after a 2 s warm-up each`,
  );
  console.log(
    '  exchange: frames come from signed SELL LIMIT orders on ETHUSDT (autocannon on core 1, 20 connections), each changing a level; diffs of one folded batch form one frame',
  );
  console.log(
    '  REPLAY_GUARD=off: autocannon cycles 500 pre-signed orders, which the replay guard would refuse after their first use',
  );
  console.log(
    '  ceiling: a bare ws server sending one frame of the same shape to every socket in a loop, pausing while a socket has over 4 MB unsent',
  );
  await seedMarketJournal(join(dir, 'data'));
  const exchange = await startPinnedServer(
    'apps/exchange/src/main.ts',
    0,
    {
      PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      EMBEDDED_PG_PORT: String(port + 1),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      REDIS_URL: '',
      METRICS_PORT: '0',
      REPLAY_GUARD: 'off',
      ...limitsRaised,
    },
    'demo secret key',
  );
  const ours: FanoutResult[] = [];
  const ceiling: FanoutResult[] = [];
  try {
    const demo = JSON.parse(readFileSync(join(dir, 'data', 'demo.json'), 'utf8')) as {
      apiKey: string;
      secretKey: string;
    };
    for (let run = 0; run < runs; run++)
      ours.push(
        await fanoutRun(
          dir,
          `ws://127.0.0.1:${port}/openapi/quote/ws/v1`,
          sockets,
          duration,
          `http://127.0.0.1:${port}`,
          orders(demo, run),
        ),
      );
  } finally {
    await stopServer(exchange);
  }
  for (let run = 0; run < runs; run++) {
    const server = await startPinnedServer(
      'bench/market-data/broadcast-server.ts',
      0,
      { PORT: String(port + 10), SOCKETS: String(sockets) },
      'ready',
    );
    try {
      ceiling.push(await fanoutRun(dir, `ws://127.0.0.1:${port + 10}`, sockets, duration));
    } finally {
      await stopServer(server);
    }
  }
  console.log('');
  console.log(`${'target'.padEnd(33)}messages/s (median, min–max)          frames/socket/s  p50 ms  p99 ms`);
  console.log(fanoutRow('exchange diffDepth fan-out', ours));
  console.log(fanoutRow('bare ws broadcast', ceiling));
  console.log(
    `ratio (median / median): ${formatNumber(median(ours.map((r) => r.messagesPerSec)) / median(ceiling.map((r) => r.messagesPerSec)), 2)}x`,
  );
}

/** Signed SELL orders far above the market: each rests and changes one ETHUSDT level. */
function orders(
  demo: { apiKey: string; secretKey: string },
  run: number,
): { method: string; path: string; headers: Record<string, string> }[] {
  const start = Date.now();
  return Array.from({ length: 500 }, (_, i) => {
    const query = `symbol=ETHUSDT&side=SELL&type=LIMIT&quantity=0.0001&price=${90_000 + run * 500 + i}.00&recvWindow=60000&timestamp=${start - i}`;
    const signature = createHmac('sha256', demo.secretKey).update(query).digest('hex');
    return {
      method: 'POST',
      path: `/openapi/v1/order?${query}&signature=${signature}`,
      headers: { 'X-SERVICE-KEY': demo.apiKey },
    };
  });
}

async function fanoutRun(
  dir: string,
  url: string,
  sockets: number,
  duration: number,
  httpUrl?: string,
  requests?: unknown[],
): Promise<FanoutResult> {
  const clientsJob = join(dir, 'clients.json');
  writeFileSync(
    clientsJob,
    JSON.stringify({
      url,
      sockets,
      subscribe: { symbol: 'ETHUSDT', topic: 'diffDepth', event: 'sub' },
      warmupSec: 2,
      durationSec: duration,
    }),
  );
  const clients = runPinnedWorker<FanoutResult>('bench/market-data/fanout-clients-worker.ts', [clientsJob], 1);
  if (httpUrl && requests) {
    const loadJob = join(dir, 'orders.json');
    writeFileSync(
      loadJob,
      JSON.stringify({ url: httpUrl, connections: 20, pipelining: 1, durationSec: duration + 4, requests }),
    );
    await runPinnedWorker('bench/support/autocannon-worker.ts', [loadJob], 1);
  }
  return clients;
}

function fanoutRow(label: string, results: FanoutResult[]): string {
  return `${label.padEnd(33)}${formatSpread(spread(results.map((r) => r.messagesPerSec))).padEnd(38)}${formatNumber(median(results.map((r) => r.framesPerSocketPerSec)), 1).padEnd(17)}${formatNumber(median(results.map((r) => r.p50Ms)), 1).padEnd(8)}${formatNumber(median(results.map((r) => r.p99Ms)), 1)}`;
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'depth')
    await runExchangeVsHello(
      readBench('depth', 'GET depth BTCUSDT limit=100', '/openapi/quote/v1/depth?symbol=BTCUSDT&limit=100', portBase),
    );
  if (!only || only === 'ticker')
    await runExchangeVsHello(
      readBench('ticker', 'GET ticker/24hr (all symbols)', '/openapi/quote/v1/ticker/24hr', portBase + 10),
    );
  if (!only || only === 'klines')
    await runExchangeVsHello(
      readBench(
        'klines',
        'GET klines 1m limit=1000',
        '/openapi/quote/v1/klines?symbol=BTCUSDT&interval=1m&limit=1000',
        portBase + 20,
      ),
    );
  if (!only || only === 'fanout') await fanout();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
