import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { allTopics } from '@exchange/contracts';
import { ensureWebBuild } from '@exchange/platform';
import { Kafka, logLevel } from 'kafkajs';
import { parse } from 'yaml';
import { assertBalanceInvariant } from './balance-invariant';
import { http } from './http-client';
import { realServiceAddress } from './real-services';
import { dropSchemas } from './test-exchange';
import { waitFor } from './wait-for';

const root = resolve(__dirname, '../..');

/** One process of the distributed topology: a docker-compose service, or one replica of it. */
export interface ServiceProcess {
  /** docker-compose service name, with `#<n>` for the n-th replica of a scaled service. */
  name: string;
  /** The app it runs (`apps/<app>/src/main.ts`). */
  app: string;
  port: number;
  /** http://127.0.0.1:<port>, bypassing the edge. */
  url: string;
  /** http://127.0.0.1:<METRICS_PORT>: GET /metrics, never served on `url`. */
  metricsUrl: string;
  logFile: string;
  child: ChildProcess;
  exited: Promise<number | string | null>;
}

export interface DistributedExchange {
  /** nginx, running docker-compose's edge configuration. */
  edgeUrl: string;
  adminToken: string;
  /** The run's folder: process logs, nginx's configuration and logs, files a test writes. */
  workDir: string;
  namespace: string;
  schemaPrefix: string;
  databaseUrl: string;
  processes: ServiceProcess[];
  /** The replicas of an app, in docker-compose order. */
  replicas(app: string): ServiceProcess[];
  /** Every line nginx logged as `<method> <uri> <status> <upstream address>`. */
  edgeAccessLog(): string[];
  /** SIGKILL (or another signal) and wait until the process is gone. */
  kill(process: ServiceProcess, signal?: NodeJS.Signals): Promise<void>;
  /** Starts the service again on the same port and environment, and waits until it is ready. */
  restart(process: ServiceProcess): Promise<ServiceProcess>;
  /** Stops everything, checks the balance invariant, drops the run's schemas. */
  stop(): Promise<void>;
}

export interface DistributedOptions {
  /** Extra environment for every service (e.g. a raised rate limit), on top of docker-compose's. */
  env?: Record<string, string>;
}

interface ComposeService {
  name: string;
  app: string;
  environment: Record<string, string>;
  replicas: number;
}

/**
 * The distributed mode for real, as CI runs it: every app of docker-compose.yml as its own
 * process (`node scripts/run.js apps/<app>/src/main.ts`, replicas included), configured by the
 * environment docker-compose gives it, with only the addresses and secrets of this run swapped
 * in: the real Kafka, PostgreSQL and Redis of the environment, an EVENT_LOG_NAMESPACE and a
 * DATABASE_SCHEMA_PREFIX (which also prefixes Redis keys) of its own, free ports. In front of
 * them nginx (Debian's package) runs deploy/nginx/edge.docker.conf with its upstreams pointed
 * at the processes, so the suite and docker-compose route alike.
 */
export async function startDistributedExchange(options: DistributedOptions = {}): Promise<DistributedExchange> {
  const nginx = nginxBinary();
  if (!nginx)
    throw new Error('nginx is not installed: run scripts/ensure-local-services.sh (installs Debian nginx-light)');
  // The edge serves the pages from dist/web, as the image's build leaves them.
  await ensureWebBuild({ root });
  const dir = mkdtempSync(join(tmpdir(), 'distributed-'));
  chmodSync(dir, 0o755);
  const hex = randomBytes(5).toString('hex');
  const run = {
    namespace: `d${hex}`,
    schemaPrefix: `d${hex}_`,
    adminToken: randomBytes(24).toString('hex'),
    databaseUrl: requiredEnv('DATABASE_URL'),
    overrides: {
      KAFKA_BROKERS: requiredEnv('KAFKA_BROKERS'),
      DATABASE_URL: requiredEnv('DATABASE_URL'),
      REDIS_URL: requiredEnv('REDIS_URL'),
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      ...options.env,
    },
  };
  const services = composeServices();
  const processes: ServiceProcess[] = [];
  for (const service of services) {
    for (let i = 0; i < service.replicas; i++) {
      const name = service.replicas > 1 ? `${service.name}#${i + 1}` : service.name;
      const env = {
        ...service.environment,
        ...run.overrides,
        ADMIN_TOKEN: run.adminToken,
        EVENT_LOG_NAMESPACE: run.namespace,
        DATABASE_SCHEMA_PREFIX: run.schemaPrefix,
        KAFKA_CLIENT_ID: `${run.namespace}-${name.replace('#', '-')}`,
        PORT: String(await freePort()),
        METRICS_PORT: String(await freePort()),
      };
      processes.push(spawnService(dir, name, service.app, env));
    }
  }
  const edgePort = await freePort();
  const edge = startNginx(nginx, dir, edgePort, services, processes);
  const exchange: DistributedExchange = {
    edgeUrl: `http://127.0.0.1:${edgePort}`,
    workDir: dir,
    adminToken: run.adminToken,
    namespace: run.namespace,
    schemaPrefix: run.schemaPrefix,
    databaseUrl: run.databaseUrl,
    processes,
    replicas: (app) => processes.filter((p) => p.app === app),
    edgeAccessLog: () =>
      existsSync(join(dir, 'access.log'))
        ? readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean)
        : [],
    kill: async (p, signal = 'SIGKILL') => {
      p.child.kill(signal);
      await p.exited;
    },
    restart: async (p) => {
      const fresh = spawnService(dir, p.name, p.app, envOf(p));
      processes.splice(processes.indexOf(p), 1, fresh);
      await waitUntilReady(fresh);
      return fresh;
    },
    stop: async () => {
      await Promise.all(processes.map((p) => stopProcess(p.child, p.exited)));
      await stopProcess(edge.child, edge.exited);
      try {
        await assertBalanceInvariant(run.databaseUrl, `${run.schemaPrefix}ledger`);
      } finally {
        await dropSchemas(run.databaseUrl, run.schemaPrefix);
        await deleteTopics(run.overrides.KAFKA_BROKERS, run.namespace);
      }
    },
  };
  try {
    await Promise.all(processes.map((p) => waitUntilReady(p)));
    await waitFor(
      async () => (await http(exchange.edgeUrl, 'GET', '/openapi/v1/ping').catch(() => ({ status: 0 }))).status === 200,
      'the edge to answer',
      10_000,
      50,
    );
  } catch (error) {
    await exchange.stop().catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${startupDiagnostics(dir, processes)}`);
  }
  return exchange;
}

/**
 * Whether the distributed suite can run here: Kafka, PostgreSQL, Redis and nginx. Like every
 * real-service suite it says in one line that it skipped, and fails instead under
 * REQUIRE_REAL_SERVICES=1 (CI).
 */
export function distributedSuiteRuns(suite: string): boolean {
  const addresses = (['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'] as const).map((v) => realServiceAddress(v, suite));
  if (addresses.some((a) => a === undefined)) return false;
  if (nginxBinary()) return true;
  if (process.env.REQUIRE_REAL_SERVICES === '1')
    throw new Error(
      `${suite}: nginx is not installed, but REQUIRE_REAL_SERVICES=1 demands it (scripts/ensure-local-services.sh installs it)`,
    );
  console.log(`skipped: ${suite} (install nginx: scripts/ensure-local-services.sh)`);
  return false;
}

/** The nginx binary of Debian's package, when installed. */
export function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** docker-compose.yml's application services (those that run `apps/<app>/src/main.ts`), anchors merged. */
function composeServices(): ComposeService[] {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      { command?: string[]; environment?: Record<string, string>; deploy?: { replicas?: number } }
    >;
  };
  const services: ComposeService[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    const entry = service.command?.find((part) => /^apps\/[^/]+\/src\/main\.ts$/.test(part));
    if (!entry) continue;
    services.push({
      name,
      app: entry.split('/')[1]!,
      environment: Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v)])),
      replicas: service.deploy?.replicas ?? 1,
    });
  }
  return services;
}

const spawnedEnv = new WeakMap<ServiceProcess, Record<string, string>>();

function envOf(p: ServiceProcess): Record<string, string> {
  return spawnedEnv.get(p)!;
}

function spawnService(dir: string, name: string, app: string, env: Record<string, string>): ServiceProcess {
  const logFile = join(dir, `${name.replace('#', '-')}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['scripts/run.js', `apps/${app}/src/main.ts`], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir, ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<number | string | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const p: ServiceProcess = {
    name,
    app,
    port: Number(env.PORT),
    url: `http://127.0.0.1:${env.PORT}`,
    metricsUrl: `http://127.0.0.1:${env.METRICS_PORT}`,
    logFile,
    child,
    exited,
  };
  spawnedEnv.set(p, env);
  return p;
}

async function waitUntilReady(p: ServiceProcess): Promise<void> {
  let gone = false;
  void p.exited.then(() => (gone = true));
  await waitFor(
    async () => {
      if (gone) throw new Error(`${p.name} exited while starting`);
      return (await http(p.url, 'GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200;
    },
    `${p.name} to be ready`,
    // Eight processes transpiling the workspace at once on a loaded CI machine take minutes.
    300_000,
    200,
  );
}

/**
 * nginx as a child of the test: no daemon, no master process (so it runs as this user and dies
 * with a SIGKILL), its own prefix, temp paths and logs under `dir`. The server block is
 * edge.docker.conf itself, with compose's service names replaced by the processes' addresses,
 * the listen port by a free one, and the include paths by deploy/nginx.
 */
function startNginx(
  binary: string,
  dir: string,
  port: number,
  services: ComposeService[],
  processes: ServiceProcess[],
): { child: ChildProcess; exited: Promise<unknown> } {
  const deploy = join(root, 'deploy/nginx');
  const addressesOf = (service: string): string[] =>
    processes.filter((p) => p.name === service || p.name.startsWith(`${service}#`)).map((p) => `127.0.0.1:${p.port}`);
  const edge = readFileSync(join(deploy, 'edge.docker.conf'), 'utf8')
    .replace(/server ([\w-]+):8080;/g, (_line, service: string) => {
      if (!services.some((s) => s.name === service))
        throw new Error(`edge.docker.conf names ${service}, which docker-compose.yml does not run`);
      return addressesOf(service)
        .map((address) => `server ${address};`)
        .join(' ');
    })
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    .replace('/etc/nginx/exchange/edge-pages.conf', edgePagesConf(dir, join(root, 'dist/web')))
    .replaceAll('/etc/nginx/exchange/', `${deploy}/`);
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(dir, temp), { recursive: true });
  const conf = [
    'daemon off;',
    'master_process off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    "  log_format upstreams '$request_method $uri $status $upstream_addr';",
    `  access_log ${dir}/access.log upstreams;`,
    edge,
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(binary, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  void exited.then((code) => {
    if (code !== null && code !== 0) process.stderr.write(`nginx exited with ${String(code)}: ${stderr}\n`);
  });
  return { child, exited };
}

/** deploy/nginx/edge-pages.conf with the pages' directory where the edge's volume would be, written into `dir`; its path. */
export function edgePagesConf(dir: string, webDir: string): string {
  const path = join(dir, 'edge-pages.conf');
  writeFileSync(
    path,
    readFileSync(join(root, 'deploy/nginx/edge-pages.conf'), 'utf8').replaceAll('/srv/exchange-web', webDir),
  );
  return path;
}

async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function startupDiagnostics(dir: string, processes: ServiceProcess[]): string {
  const tail = (file: string): string =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
  return [
    ...processes.map((p) => `--- ${p.name} (${p.logFile})\n${tail(p.logFile)}`),
    `--- nginx\n${tail(join(dir, 'error.log'))}`,
  ].join('\n');
}

/** The broker is shared by every test run: leave it without this run's topics. */
async function deleteTopics(brokers: string, namespace: string): Promise<void> {
  const admin = new Kafka({
    brokers: brokers.split(','),
    clientId: `${namespace}-cleanup`,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: allTopics.map((t) => `${namespace}.${t.name}`) }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

function requiredEnv(name: 'DATABASE_URL' | 'KAFKA_BROKERS' | 'REDIS_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`the distributed suite needs ${name}`);
  return value;
}

/** A port the OS just handed out; the race until the service binds it is accepted for tests. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
