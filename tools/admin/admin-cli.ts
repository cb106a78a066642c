// The operator API from a shell: `npm run admin -- <command> [args]`. Talks HTTP to a running
// exchange (EXCHANGE_URL, default http://127.0.0.1:$PORT) with ADMIN_TOKEN, or the token the
// embedded default keeps in DATA_DIR/secrets.json. Prints the JSON answer; exits 1 on an error.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toCall } from './admin-commands';

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const path = join(process.env.DATA_DIR ?? './data', 'secrets.json');
  if (existsSync(path)) return (JSON.parse(readFileSync(path, 'utf8')) as { adminToken: string }).adminToken;
  throw new Error('set ADMIN_TOKEN (or DATA_DIR of an embedded exchange)');
}

async function main(): Promise<void> {
  const call = toCall(process.argv.slice(2));
  const base = process.env.EXCHANGE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
  const response = await fetch(base + call.path, {
    method: call.method,
    headers: { authorization: `Bearer ${adminToken()}`, ...(call.body ? { 'content-type': 'application/json' } : {}) },
    body: call.body ? JSON.stringify(call.body) : undefined,
  });
  const text = await response.text();
  process.stdout.write(text + '\n');
  process.exit(response.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
