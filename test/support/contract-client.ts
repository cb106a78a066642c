import Decimal from 'decimal.js';
import type { Clock } from '@exchange/platform';
import { createFundedUser, type TestUser } from './exchange-actors';
import { adminCall, signedRequest } from './signed-client';

type Json = Record<string, unknown>;

/**
 * A contract test's view of an exchange through HTTP and the operator API: orders, positions,
 * USDT and balance flow of users' contracts accounts, the insurance fund, and the index the
 * operator feeds (a markets file from externalIndexMarkets). Signed at the test's clock.
 */
export function contractClient(baseUrl: string, adminToken: string, clock: Clock, symbol: string, index: string) {
  let n = 0;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const total = async (user: TestUser) =>
    new Decimal((await call<{ USDT: Json }>(user, 'GET', '/openapi/contract/v1/account')).body.USDT.total as string);
  const flows = async (user: TestUser) =>
    (await call<Json[]>(user, 'GET', '/openapi/v1/balance_flow', { accountType: 3, tokenId: 'USDT', limit: 500 })).body;
  return {
    call,
    total,
    flows,
    /** A user with `amount` USDT moved into its contracts account. */
    async trader(amount: string): Promise<TestUser> {
      const user = await createFundedUser(baseUrl, adminToken, { USDT: '100000' });
      const moved = await call(user, 'POST', '/openapi/v1/transfer', {
        fromAccountType: 1,
        toAccountType: 3,
        tokenId: 'USDT',
        amount,
      });
      if (JSON.stringify(moved.body) !== '{"success":"true"}')
        throw new Error(`transfer: ${JSON.stringify(moved.body)}`);
      return user;
    },
    order: (user: TestUser, side: string, quantity: string, price: string, leverage = '10') =>
      call(user, 'POST', '/openapi/contract/v1/order', {
        symbol,
        side,
        quantity,
        price,
        clientOrderId: `cc-${++n}`,
        leverage,
      }),
    position: async (user: TestUser, side: string) =>
      (await call<Json[]>(user, 'GET', '/openapi/contract/v1/positions', { symbol })).body.find((p) => p.side === side),
    insurance: async () =>
      new Decimal(
        ((await fetch(`${baseUrl}/openapi/contract/v1/insurance`).then((r) => r.json())) as { balance: string })
          .balance,
      ),
    feed: (price: string) => adminCall(baseUrl, adminToken, 'POST', '/admin/v1/index-prices', { index, price }),
    /** The account's USDT is its flows' sum (it started empty): every unit explained. Returns both. */
    async flowsExplain(user: TestUser): Promise<{ flows: string; total: string }> {
      const sum = (await flows(user)).reduce((s, f) => s.plus(f.change as string), new Decimal(0));
      return { flows: sum.toFixed(), total: (await total(user)).toFixed() };
    },
  };
}
