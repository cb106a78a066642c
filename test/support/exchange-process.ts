import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { http } from './http-client';
import { waitFor } from './wait-for';

const root = resolve(__dirname, '../..');

export interface ExchangeProcess {
  child: ChildProcess;
  baseUrl: string;
  /** GET /metrics (the port after PORT's next one unless the test names METRICS_PORT). */
  metricsUrl: string;
  output(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited(): Promise<number | string | null>;
}

/**
 * The embedded exchange as a real process (`apps/exchange/src/main.ts`, what `npm start` runs),
 * for tests that kill it. Variables the test run sets for itself are removed unless passed in env.
 */
export function spawnExchange(env: Record<string, string>): ExchangeProcess {
  const full: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const name of [
    'DATABASE_URL',
    'KAFKA_BROKERS',
    'REDIS_URL',
    'ADMIN_TOKEN',
    'SECRET_ENCRYPTION_KEY',
    'DATABASE_SCHEMA_PREFIX',
  ])
    delete full[name];
  // Several of these run at once: the metrics port is one of the few after PORT (freePortBase)
  // unless the test names it, so a test can read the process's consumer lags.
  Object.assign(full, { METRICS_PORT: env.PORT ? String(Number(env.PORT) + 2) : '0' }, env);
  const child = spawn(process.execPath, ['scripts/run.js', 'apps/exchange/src/main.ts'], {
    cwd: root,
    env: full,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | string | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  return {
    child,
    baseUrl: `http://127.0.0.1:${env.PORT}`,
    metricsUrl: `http://127.0.0.1:${full.METRICS_PORT}`,
    output: () => out,
    exited: () => exit,
  };
}

export async function waitUntilServing(exchange: ExchangeProcess, timeoutMs = 60_000): Promise<void> {
  try {
    await waitFor(
      async () => (await http(exchange.baseUrl, 'GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200,
      'the exchange to serve',
      timeoutMs,
      100,
    );
  } catch (error) {
    // The process's last words say why (a port taken, a failed migration) better than the timeout.
    throw new Error(`${(error as Error).message}; its output ends with:\n${exchange.output().slice(-3000)}`);
  }
}

/** Waits until a freshly spawned exchange serves and has made its demo user; the operator token it wrote under `dataDir`. */
export async function adminTokenOnceReady(exchange: ExchangeProcess, dataDir: string): Promise<string> {
  await waitUntilServing(exchange);
  await waitFor(() => exchange.output().includes('demo secret key'), 'the demo user');
  return (JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { adminToken: string }).adminToken;
}

/**
 * A port for a spawned exchange (and the few after it). Below Linux's ephemeral range (32768+):
 * there, the client sockets a benchmark or a busy suite leaves in TIME-WAIT can make listen fail.
 */
export function freePortBase(): number {
  return 20_000 + Math.floor(Math.random() * 12_000);
}

// A type, not an interface: spawnExchange takes a Record, which only a type alias satisfies.
type TestBedEnv = {
  DATA_DIR: string;
  PORT: string;
  DATABASE_URL: string;
  DATABASE_SCHEMA_PREFIX: string;
};

/**
 * What a test that spawns (and kills) the embedded exchange gives it: its own data folder, readable
 * by the unprivileged user embedded PostgreSQL runs as when tests run as root, its own schemas on
 * the test database (DATABASE_URL), so files of the same suite may run at once, and free ports.
 */
export function exchangeTestBed<Extra extends Record<string, string>>(
  name: string,
  extra?: Extra,
): { dataDir: string; prefix: string; env: TestBedEnv & Extra } {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  chmodSync(dataDir, 0o755);
  const prefix = `t${randomBytes(5).toString('hex')}_`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(freePortBase()),
    DATABASE_URL: process.env.DATABASE_URL!,
    DATABASE_SCHEMA_PREFIX: prefix,
    ...extra,
  } as TestBedEnv & Extra;
  return { dataDir, prefix, env };
}
