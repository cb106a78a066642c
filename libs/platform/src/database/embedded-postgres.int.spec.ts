import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');

function check(dir: string, port: number, action: 'write' | 'read'): { rows: unknown[]; user: unknown } {
  const out = execFileSync(
    process.execPath,
    ['scripts/run.js', 'test/support/embedded-postgres-check.ts', dir, String(port), action],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('embedded PostgreSQL', () => {
  it('starts under its folder on its own port, keeps data across a restart, and stops', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-pg-'));
    chmodSync(dataDir, 0o755);
    const port = 55_000 + Math.floor(Math.random() * 4000);
    const pgDir = join(dataDir, 'postgres');

    expect(check(pgDir, port, 'write')).toEqual({ rows: [{ v: 'still here' }], user: { current_user: 'postgres' } });
    expect(existsSync(join(pgDir, 'PG_VERSION'))).toBe(true);
    expect(check(pgDir, port, 'read').rows).toEqual([{ v: 'still here' }]);
  }, 180_000);
});
