import 'reflect-metadata';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;

jest.setTimeout(60_000);

const HUGE_ID = '12345678901234567890';

/**
 * Text that PostgreSQL cannot store (NUL) or that no parameter should carry (other controls) is
 * refused at the edge with 400 / -1100 naming the parameter, on the signed API and the operator
 * API, paths included; ids out of range are 400 too. Nothing reaches a command or a query, so
 * nothing changes.
 */
describe('hostile text at the edge', () => {
  let exchange: TestExchange;
  let token: string;
  let alice: TestUser;
  const admin = <T = Json>(method: string, path: string, body?: unknown) =>
    adminCall<T>(exchange.baseUrl, token, method, path, body);
  const call = <T = Json>(method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, alice.key, { query });
  const subAccounts = async () => (await call<Json[]>('POST', '/openapi/v1/subAccount/query')).body;
  const addressBook = async () =>
    (await admin<Json[]>('GET', `/admin/v1/withdrawal-addresses?accountId=${alice.mainAccountId}`)).body;

  beforeAll(async () => {
    exchange = await startTestExchange();
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token, { USDT: '1000' });
  }, 60_000);
  afterAll(async () => exchange.close(), 60_000);

  it.each(['\u0000', 'a\u0000b', 'tab\there', 'line\nbreak', 'del\u007f', 'c1\u0085', 'lone\ud800'])(
    'refuses accountName %j with -1100 and creates nothing',
    async (accountName) => {
      const before = await subAccounts();
      const answer = await admin('POST', `/admin/v1/users/${alice.userId}/sub-accounts`, { accountName });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1100, msg: expect.stringContaining("'accountName'") });
      expect(await subAccounts()).toEqual(before);
    },
  );

  it('refuses a NUL withdrawal address, a NUL in any body string, and over-long text', async () => {
    const before = await addressBook();
    const nul = await admin('POST', '/admin/v1/withdrawal-addresses', {
      accountId: alice.mainAccountId,
      tokenId: 'BTC',
      address: '\u0000',
    });
    expect(nul).toMatchObject({ status: 400, body: { code: -1100, msg: expect.stringContaining("'address'") } });
    const ext = await admin('POST', '/admin/v1/withdrawal-addresses', {
      accountId: alice.mainAccountId,
      tokenId: 'BTC',
      address: 'bc1qok',
      addressExt: 'x\u0000',
    });
    expect(ext).toMatchObject({ status: 400, body: { code: -1100, msg: expect.stringContaining("'addressExt'") } });
    const deposit = await admin('POST', '/admin/v1/deposits', {
      accountId: alice.mainAccountId,
      asset: 'USDT',
      amount: '1',
      txid: '\u0000',
    });
    expect(deposit).toMatchObject({ status: 400, body: { code: -1100, msg: expect.stringContaining("'txid'") } });
    const long = await admin('POST', '/admin/v1/withdrawal-addresses', {
      accountId: alice.mainAccountId,
      tokenId: 'BTC',
      address: 'b'.repeat(201),
    });
    expect(long).toMatchObject({ status: 400, body: { code: -1130 } });
    expect(await addressBook()).toEqual(before);
    const balances = (
      await admin<{ balances: { asset: string; free: string }[] }>('GET', `/admin/v1/accounts/${alice.mainAccountId}`)
    ).body.balances;
    expect(balances.find((b) => b.asset === 'USDT')?.free).toBe('1000.00000000');
  });

  it.each([
    ['POST', '/admin/v1/users/%00/sub-accounts', { accountName: 'x' }, -1100],
    ['POST', `/admin/v1/users/${HUGE_ID}/sub-accounts`, { accountName: 'x' }, -1130],
    ['GET', '/admin/v1/accounts/%00', undefined, -1100],
    ['GET', `/admin/v1/accounts/${HUGE_ID}`, undefined, -1130],
    ['POST', `/admin/v1/accounts/${HUGE_ID}/flags`, { canTrade: false }, -1130],
    ['GET', '/admin/v1/api-keys?accountId=%00', undefined, -1100],
    ['GET', `/admin/v1/withdrawal-addresses?accountId=${HUGE_ID}`, undefined, -1130],
    ['DELETE', '/admin/v1/api-keys/%00', undefined, -1100],
    ['DELETE', '/admin/v1/withdrawal-addresses/%00', undefined, -1100],
    ['DELETE', `/admin/v1/withdrawal-addresses/${HUGE_ID}`, undefined, -1130],
    ['POST', '/admin/v1/withdrawals/%00/approve', undefined, -1100],
    ['POST', `/admin/v1/withdrawals/${HUGE_ID}/reject`, {}, -1130],
    ['POST', '/admin/v1/chain/withdrawals/1%00/confirm', {}, -1100],
    ['POST', '/admin/v1/symbols/BTC%00USDT/status', { status: 'HALT' }, -1100],
  ])('%s %s %j answers 400 / %d', async (method, path, body, code) => {
    const answer = await admin(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code, msg: expect.any(String) });
  });

  it('refuses NUL client order ids and out-of-range ids on the signed API, and changes nothing', async () => {
    const placed = await call<{ orderId: string }>('POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '100',
      quantity: '0.1',
      newClientOrderId: 'keep-1',
    });
    expect(placed.status).toBe(200);
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', '/openapi/v1/order', { origClientOrderId: '\u0000' }, -1100],
      ['DELETE', '/openapi/v1/order', { clientOrderId: '1\u0000' }, -1100],
      ['DELETE', '/openapi/v1/order', { origClientOrderId: 'keep-1\u0000' }, -1100],
      ['GET', '/openapi/v1/withdraw/detail', { clientOrderId: '\u0000' }, -1100],
      ['GET', '/openapi/v1/order', { orderId: HUGE_ID }, -1130],
      [
        'POST',
        '/openapi/v1/withdraw',
        { tokenId: 'BTC', address: 'bc1q\u0000', clientOrderId: 'w-1', withdrawalQuantity: '0.1' },
        -1100,
      ],
      ['GET', '/openapi/v1/order', { ['orderId\u0000']: '1' }, -1100],
      ['GET', '/openapi/v1/openOrders', { note: 'x'.repeat(1025) }, -1130],
    ];
    for (const [method, path, query, code] of cases) {
      const answer = await call(method, path, query);
      expect({ method, path, status: answer.status, body: answer.body }).toEqual({
        method,
        path,
        status: 400,
        body: { code, msg: expect.any(String) },
      });
    }
    const open = await call<{ orderId: string }[]>('GET', '/openapi/v1/openOrders');
    expect(open.body.map((o) => o.orderId)).toEqual([placed.body.orderId]);
  });
});
