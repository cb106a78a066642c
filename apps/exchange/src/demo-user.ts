import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminService } from '@exchange/api-gateway';

export interface DemoUser {
  userId: string;
  accountId: string;
  apiKey: string;
  secretKey: string;
}

export const DEMO_BALANCES: Record<string, string> = { BTC: '10', ETH: '100', USDT: '1000000' };

/**
 * On an empty DATA_DIR the embedded default makes a demo user with a key of every permission and
 * demo balances, so a newcomer can sign a request at once. The key is kept in DATA_DIR/demo.json
 * (mode 600) to be shown again at the next start.
 */
export async function ensureDemoUser(admin: AdminService, dataDir: string): Promise<DemoUser> {
  const path = join(dataDir, 'demo.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as DemoUser;
  const user = await admin.createUser('demo');
  const accountId = user.accounts.find((a) => a.accountType === 1 && a.accountIndex === 0)!.accountId;
  const key = await admin.createApiKey(accountId, ['read', 'trade', 'withdraw']);
  for (const [asset, amount] of Object.entries(DEMO_BALANCES)) await admin.deposit(accountId, asset, amount);
  const demo: DemoUser = { userId: user.userId, accountId, apiKey: key.apiKey, secretKey: key.secretKey };
  writeFileSync(path, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
  return demo;
}

export function demoBanner(demo: DemoUser, adminToken: string, port: number): string {
  return [
    '',
    `Exchange ready on http://localhost:${port}/ (trading page; operator console at /admin/)`,
    `  operator token (Authorization: Bearer …): ${adminToken}`,
    `  demo user ${demo.userId}, account ${demo.accountId}, balances ${Object.entries(DEMO_BALANCES)
      .map(([a, v]) => `${v} ${a}`)
      .join(', ')}`,
    `  demo API key:    ${demo.apiKey}`,
    `  demo secret key: ${demo.secretKey}`,
    '  sign: HMAC-SHA256(secret, query string + body) as hex, in `signature`; key in the X-SERVICE-KEY header (README.md)',
    '',
  ].join('\n');
}
