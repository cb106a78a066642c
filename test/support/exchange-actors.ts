import { randomUUID } from 'node:crypto';
import type { Credentials } from './signed-client';
import { adminCall, signedRequest } from './signed-client';

export interface TestUser {
  userId: string;
  mainAccountId: string;
  accounts: { accountId: string; accountType: number; accountIndex: number }[];
  key: Credentials;
}

/** A user with a main-account key (all permissions by default) and optional deposits, via the operator API. */
export async function createFundedUser(
  baseUrl: string,
  adminToken: string,
  deposits: Record<string, string> = {},
  permissions = ['read', 'trade', 'withdraw'],
): Promise<TestUser> {
  const user = await adminCall<{ userId: string; accounts: TestUser['accounts'] }>(
    baseUrl,
    adminToken,
    'POST',
    '/admin/v1/users',
    { name: 'test' },
  );
  if (user.status !== 200) throw new Error(`create user: ${user.status} ${JSON.stringify(user.body)}`);
  const mainAccountId = user.body.accounts.find((a) => a.accountType === 1 && a.accountIndex === 0)!.accountId;
  const key = await adminCall<Credentials>(baseUrl, adminToken, 'POST', '/admin/v1/api-keys', {
    accountId: mainAccountId,
    permissions,
  });
  if (key.status !== 200) throw new Error(`create key: ${key.status} ${JSON.stringify(key.body)}`);
  for (const [asset, amount] of Object.entries(deposits)) {
    // One txid per deposit: a -1007 (a freshly started topology may answer its first commands late)
    // is retried with it, as a client does, and the wallet credits it once whatever the retries.
    const body = { accountId: mainAccountId, asset, amount, txid: `test-fund-${randomUUID()}` };
    let deposit = await adminCall<{ code?: number }>(baseUrl, adminToken, 'POST', '/admin/v1/deposits', body);
    for (let retry = 0; retry < 5 && deposit.body.code === -1007; retry++)
      deposit = await adminCall<{ code?: number }>(baseUrl, adminToken, 'POST', '/admin/v1/deposits', body);
    if (deposit.status !== 200) throw new Error(`deposit: ${deposit.status} ${JSON.stringify(deposit.body)}`);
  }
  return {
    userId: user.body.userId,
    mainAccountId,
    accounts: user.body.accounts,
    key: { apiKey: key.body.apiKey, secretKey: key.body.secretKey },
  };
}

/** The user's free balance of `asset` as GET /openapi/v1/account answers it (undefined when the account has none). */
export async function freeBalance(baseUrl: string, user: TestUser, asset: string): Promise<string | undefined> {
  const account = await signedRequest<{ balances?: { asset: string; free: string }[] }>(
    baseUrl,
    'GET',
    '/openapi/v1/account',
    user.key,
  );
  return account.body.balances?.find((b) => b.asset === asset)?.free;
}

/** `count` users funded with `deposit` USDT, `toContracts` of it moved to their contracts account (type 3). */
export async function createContractTraders(
  baseUrl: string,
  adminToken: string,
  count: number,
  deposit = '100000',
  toContracts = '10000',
): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createFundedUser(baseUrl, adminToken, { USDT: deposit });
    const moved = await signedRequest(baseUrl, 'POST', '/openapi/v1/transfer', user.key, {
      query: { fromAccountType: 1, toAccountType: 3, tokenId: 'USDT', amount: toContracts },
    });
    if ((moved.body as { success?: string }).success !== 'true')
      throw new Error(`transfer to contracts: ${moved.status} ${JSON.stringify(moved.body)}`);
    users.push(user);
  }
  return users;
}
