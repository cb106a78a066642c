import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePortBase } from '../../../test/support/exchange-process';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

const root = resolve(__dirname, '../../..');

function startExchangeProcess(dataDir: string, port: number): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(port + 1),
    LOG_LEVEL: 'warn',
  };
  for (const name of [
    'DATABASE_URL',
    'KAFKA_BROKERS',
    'REDIS_URL',
    'ADMIN_TOKEN',
    'SECRET_ENCRYPTION_KEY',
    'DATABASE_SCHEMA_PREFIX',
  ])
    delete env[name];
  const child = spawn(process.execPath, ['scripts/run.js', 'apps/exchange/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { child, output: () => out };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) =>
    child.exitCode !== null ? done(child.exitCode) : child.once('exit', (code) => done(code)),
  );
}

/** `npm start` as a newcomer runs it: nothing configured, no service installed, an empty DATA_DIR. */
describe('the embedded default (npm start)', () => {
  it('serves within 30 s on nothing but its DATA_DIR, prints a working demo key, stops cleanly on SIGTERM, and starts again on the same data, also after kill -9', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'exchange-start-'));
    chmodSync(dataDir, 0o755);
    const port = freePortBase();
    const base = `http://127.0.0.1:${port}`;

    const banners: string[] = [];
    for (const round of ['fresh', 'restart']) {
      const started = Date.now();
      const { child, output } = startExchangeProcess(dataDir, port);
      await waitFor(
        async () => (await http(base, 'GET', '/openapi/v1/time').catch(() => ({ status: 0 }))).status === 200,
        `the ${round} exchange to serve`,
        30_000,
        200,
      );
      expect(Date.now() - started).toBeLessThan(30_000);
      const info = await http<{ symbols: { symbol: string }[] }>(base, 'GET', '/openapi/v1/brokerInfo');
      expect(info.body.symbols.map((s) => s.symbol)).toEqual(expect.arrayContaining(['BTCUSDT', 'ETHUSDT', 'ETHBTC']));
      expect((await http(base, 'GET', '/health/ready')).status).toBe(200);
      await waitFor(() => output().includes('demo secret key'), 'the demo banner', 30_000);
      const apiKey = /demo API key: +(\w+)/.exec(output())![1]!;
      const secretKey = /demo secret key: +(\w+)/.exec(output())![1]!;
      const account = await signedRequest<{ balances: { asset: string; free: string }[] }>(
        base,
        'GET',
        '/openapi/v1/account',
        { apiKey, secretKey },
      );
      expect(account.body.balances.find((b) => b.asset === 'BTC')?.free).toBe('10.00000000');
      banners.push(`${apiKey}:${secretKey}`);
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
    }
    expect(banners[1]).toBe(banners[0]);

    // kill -9 leaves the embedded PostgreSQL orphaned; the next start must stop it and go on.
    const killed = startExchangeProcess(dataDir, port);
    await waitFor(
      async () => (await http(base, 'GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200,
      'the exchange before kill -9',
      30_000,
      200,
    );
    killed.child.kill('SIGKILL');
    await exited(killed.child);
    const revived = startExchangeProcess(dataDir, port);
    await waitFor(
      async () => (await http(base, 'GET', '/health/ready').catch(() => ({ status: 0 }))).status === 200,
      'the exchange after kill -9',
      60_000,
      200,
    );
    revived.child.kill('SIGTERM');
    expect(await exited(revived.child)).toBe(0);
    expect(existsSync(join(dataDir, 'event-log', 'manifest.json'))).toBe(true);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  }, 120_000);
});
