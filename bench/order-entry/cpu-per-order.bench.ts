// bench/order-entry/cpu-per-order: what one order costs in CPU, measured as CPU seconds of the
// exchange's process tree (Node and the embedded PostgreSQL it runs), not as wall time, so the
// figure holds on a machine shared with other jobs; plus one order at a time from one client
// (p50/p99). The same orders as bench:order-entry (IOC BUY below the market, ends CANCELED).
// Run: `node scripts/run.js bench/order-entry/cpu-per-order.bench.ts` (BENCH_ORDERS, 10000).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { randomPortBlock } from '../support/ports';
import { cpuSecondsOfTree } from '../support/process-cpu';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
// A random block: several runs (base and branch, other sessions) may overlap on a shared machine.
const PORT = randomPortBlock();

async function startExchange(dir: string): Promise<ChildProcess> {
  const env = {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR: join(dir, 'data'),
    EMBEDDED_PG_PORT: String(PORT + 1),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    REDIS_URL: '',
    METRICS_PORT: '0',
    RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
    RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
    RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
    REPLAY_GUARD: 'off',
  };
  // BENCH_PROFILE_DIR=<dir>: the exchange writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE_DIR)}`]
    : [];
  const child = spawn(process.execPath, [...profile, 'scripts/run.js', 'apps/exchange/src/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('demo secret key')) ready();
    });
    child.once('exit', (code) => fail(new Error(`exchange exited (${code}) before serving`)));
  });
  return child;
}

/** Signed requests, made just before use (each is valid for recvWindow, 60 s). */
function presigned(dir: string, method: 'GET' | 'POST', path: string, params: string): autocannon.Request[] {
  const { apiKey, secretKey } = JSON.parse(readFileSync(join(dir, 'data', 'demo.json'), 'utf8')) as {
    apiKey: string;
    secretKey: string;
  };
  const start = Date.now();
  return Array.from({ length: 500 }, (_, i) => {
    const query = `${params}recvWindow=60000&timestamp=${start - i}`;
    const signature = createHmac('sha256', secretKey).update(query).digest('hex');
    return { method, path: `${path}?${query}&signature=${signature}`, headers: { 'X-SERVICE-KEY': apiKey } };
  });
}

const orders = (dir: string): autocannon.Request[] =>
  presigned(
    dir,
    'POST',
    '/openapi/v1/order',
    'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01&',
  );

async function load(requests: autocannon.Request[], connections: number, amount: number): Promise<autocannon.Result> {
  return autocannon({ url: `http://127.0.0.1:${PORT}`, connections, amount, requests });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-per-order-'));
  const child = await startExchange(dir);
  try {
    await load(orders(dir), 100, 2_000);
    const before = cpuSecondsOfTree(child.pid!);
    const started = Date.now();
    const burst = await load(orders(dir), 100, ORDERS);
    const wall = (Date.now() - started) / 1000;
    const after = cpuSecondsOfTree(child.pid!);
    const single = await load(orders(dir), 1, 500);
    // Reads while orders stream: what a read that must reflect every reply (read-your-writes) waits.
    const [reads] = await Promise.all([
      load(presigned(dir, 'GET', '/openapi/v1/account', ''), 10, 2_000),
      load(orders(dir), 90, 3_000),
    ]);
    const us = (seconds: number): string => `${Math.round((seconds / ORDERS) * 1e6)} µs`;
    console.log(
      `bench/cpu-per-order: ${ORDERS} orders from 100 connections in ${wall.toFixed(1)} s wall (${Math.round(ORDERS / wall)} orders/s on this machine as loaded now)`,
    );
    console.log(
      `  CPU per order: ${us(after.node - before.node + after.others - before.others)} (Node ${us(after.node - before.node)}, embedded PostgreSQL ${us(after.others - before.others)})`,
    );
    console.log(`  100 connections: p50 ${burst.latency.p50} ms, p99 ${burst.latency.p99} ms; non-2xx ${burst.non2xx}`);
    console.log(
      `  GET /openapi/v1/account from 10 connections while 90 send orders: p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms; non-2xx ${reads.non2xx}`,
    );
    console.log(
      `  one at a time (1 connection, 500 orders): p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms, mean ${single.latency.average} ms; non-2xx ${single.non2xx}, errors ${single.errors}`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
