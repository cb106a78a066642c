import 'reflect-metadata';
import { accountSchema, balanceFlowSchema } from '@exchange/api-gateway';
import { HeaderNames, Topics } from '@exchange/contracts';
import { errorBodySchema, ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

describe('accounts, API keys and signed requests on the embedded exchange', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let base: string;
  let token: string;
  let alice: TestUser;

  const now = (): number => clock.now();

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, onKafkaWhenAvailable: true });
    base = exchange.baseUrl;
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(base, token, { USDT: '1000', BTC: '2.5' });
  });
  afterAll(async () => exchange.close());

  describe('operator API', () => {
    it('refuses a call without the bearer token (401, -1002)', async () => {
      const answer = await http(base, 'POST', '/admin/v1/users', {
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(answer).toMatchObject({ status: 401, body: { code: -1002 } });
      expect(
        (await adminCall(base, 'wrong-token-wrong-token', 'GET', `/admin/v1/accounts/${alice.mainAccountId}`)).status,
      ).toBe(401);
    });

    it('creates users with main accounts of types 1, 2 and 3', () => {
      expect(alice.accounts.map((a) => [a.accountType, a.accountIndex])).toEqual([
        [1, 0],
        [2, 0],
        [3, 0],
      ]);
    });

    it("shows an account's balances and flags", async () => {
      const answer = await adminCall<{ balances: { asset: string; free: string }[] }>(
        base,
        token,
        'GET',
        `/admin/v1/accounts/${alice.mainAccountId}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.balances).toContainEqual({ asset: 'USDT', free: '1000.00000000', locked: '0.00000000' });
    });

    it("refuses bad bodies with the family's codes", async () => {
      expect(
        (await adminCall(base, token, 'POST', '/admin/v1/deposits', { accountId: alice.mainAccountId, asset: 'USDT' }))
          .body,
      ).toMatchObject({ code: -1102 });
      expect(
        (
          await adminCall(base, token, 'POST', '/admin/v1/deposits', {
            accountId: alice.mainAccountId,
            asset: 'USDT',
            amount: '-5',
          })
        ).body,
      ).toMatchObject({ code: -1100 });
      expect(
        (await adminCall(base, token, 'POST', '/admin/v1/deposits', { accountId: '999', asset: 'USDT', amount: '5' }))
          .body,
      ).toMatchObject({ code: -1130 });
      expect(
        (
          await adminCall(base, token, 'POST', '/admin/v1/api-keys', {
            accountId: alice.mainAccountId,
            permissions: ['admin'],
          })
        ).body,
      ).toMatchObject({ code: -1130 });
    });
  });

  describe('operator audit', () => {
    it('records every operator call on operator.audit with its outcome and the request id, answered or refused', async () => {
      const call = (path: string, body: unknown, requestId: string) =>
        http(base, 'POST', path, {
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': requestId },
        });
      const [granted, refused] = [`audit-ok-${Date.now()}`, `audit-refused-${Date.now()}`];
      expect(
        (await call('/admin/v1/api-keys', { accountId: alice.mainAccountId, permissions: ['read'] }, granted)).status,
      ).toBe(200);
      expect(
        (await call('/admin/v1/deposits', { accountId: alice.mainAccountId, asset: 'USDT', amount: '-5' }, refused))
          .body,
      ).toMatchObject({ code: -1100 });

      const records: { headers: Record<string, string>; payload: Record<string, unknown> }[] = [];
      await exchange.infrastructure.eventLog.read(Topics.operatorAudit.name, 0, 0, async (batch) => {
        for (const r of batch)
          records.push({
            headers: r.headers,
            payload: (JSON.parse(r.value) as { payload: Record<string, unknown> }).payload,
          });
      });
      const of = (id: string) =>
        records.filter((r) => r.headers[HeaderNames.correlationId] === id).map((r) => r.payload);
      expect(of(granted)).toEqual([
        expect.objectContaining({
          actor: 'admin',
          correlationId: granted,
          method: 'POST',
          path: '/admin/v1/api-keys',
          status: 200,
        }),
      ]);
      expect(of(refused)).toEqual([
        expect.objectContaining({
          correlationId: refused,
          path: '/admin/v1/deposits',
          status: 400,
          code: -1100,
          body: { accountId: alice.mainAccountId, asset: 'USDT', amount: '-5' },
        }),
      ]);
    });
  });

  describe('signed requests', () => {
    it('answers GET /openapi/v1/account with every asset, in the documented shape', async () => {
      const answer = await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now() });
      expect(answer.status).toBe(200);
      const body = accountSchema.parse(answer.body);
      expect(body.balances).toEqual([
        { asset: 'BTC', free: '2.50000000', locked: '0.00000000' },
        { asset: 'ETH', free: '0.00000000', locked: '0.00000000' },
        { asset: 'USDT', free: '1000.00000000', locked: '0.00000000' },
      ]);
      expect(answer.headers.get('x-service-used-weight-1m')).toMatch(/^\d+$/);
    });

    it("answers each account read with the account's state after the last reply, flags and balances included", async () => {
      const bob = await createFundedUser(base, token, { BTC: '1' });
      const read = async () => {
        const answer = await signedRequest(base, 'GET', '/openapi/v1/account', bob.key, { timestamp: now() });
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
        return accountSchema.parse(answer.body);
      };
      expect(await read()).toMatchObject({
        canTrade: true,
        balances: expect.arrayContaining([{ asset: 'BTC', free: '1.00000000', locked: '0.00000000' }]),
      });
      await read();
      const flags = { canTrade: false };
      expect(
        (await adminCall(base, token, 'POST', `/admin/v1/accounts/${bob.mainAccountId}/flags`, flags)).status,
      ).toBe(200);
      expect(await read()).toMatchObject({ canTrade: false, canWithdraw: true });
      const deposit = { accountId: bob.mainAccountId, asset: 'BTC', amount: '0.5', txid: `e2e-read-${now()}` };
      expect((await adminCall(base, token, 'POST', '/admin/v1/deposits', deposit)).status).toBe(200);
      expect((await read()).balances).toContainEqual({ asset: 'BTC', free: '1.50000000', locked: '0.00000000' });
    });

    it("accepts the signature in the body and ccxt's trailing-& form", async () => {
      const { createHmac } = await import('node:crypto');
      // recvWindow makes these bytes differ from the helper's own `timestamp=<now>`: a POST spends its signature.
      const body = `timestamp=${now()}&recvWindow=4999`;
      const signature = createHmac('sha256', alice.key.secretKey).update(body).digest('hex');
      const inBody = await http(base, 'POST', '/openapi/v1/subAccount/query', {
        body: `${body}&signature=${signature}`,
        headers: { 'X-SERVICE-KEY': alice.key.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(inBody.status).toBe(200);
      const signed = `timestamp=${now()}&`;
      const ccxt = await http(
        base,
        'GET',
        `/openapi/v1/account?${signed}&signature=${createHmac('sha256', alice.key.secretKey).update(signed).digest('hex')}`,
        {
          headers: { 'X-SERVICE-KEY': alice.key.apiKey },
        },
      );
      expect(ccxt.status).toBe(200);
    });

    it.each([
      ['no key', { 'X-SERVICE-KEY': '' }, 401, -1002],
      ['a malformed key', { 'X-SERVICE-KEY': 'short' }, 401, -2014],
      ['an unknown key', { 'X-SERVICE-KEY': 'A'.repeat(64) }, 401, -2015],
    ])('refuses %s', async (_what, headers, status, code) => {
      const answer = await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now(), headers });
      expect(answer.status).toBe(status);
      expect(errorBodySchema.parse(answer.body).code).toBe(code);
    });

    it('refuses a wrong secret with -1022', async () => {
      const answer = await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, {
        timestamp: now(),
        secretOverride: 'x'.repeat(64),
      });
      expect(answer).toMatchObject({ status: 401, body: { code: -1022 } });
    });

    it('refuses timestamps more than 1 s ahead or older than recvWindow, naming the server time', async () => {
      const ahead = await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now() + 1001 });
      expect(ahead).toMatchObject({ status: 400, body: { code: -1021 } });
      expect((ahead.body as { msg: string }).msg).toContain(String(now()));
      expect(
        (await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now() + 1000 })).status,
      ).toBe(200);
      expect(
        (await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now() - 5001 })).body,
      ).toMatchObject({ code: -1021 });
      expect(
        (
          await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, {
            timestamp: now() - 5001,
            recvWindow: 10_000,
          })
        ).status,
      ).toBe(200);
      expect(
        (await signedRequest(base, 'GET', '/openapi/v1/account', alice.key, { timestamp: now(), recvWindow: 60_001 }))
          .body,
      ).toMatchObject({ code: -1025 });
    });

    it('refuses a key without the permission with 403 / -2015, and a revoked key at once', async () => {
      const readOnly = await adminCall<{ apiKey: string; secretKey: string }>(
        base,
        token,
        'POST',
        '/admin/v1/api-keys',
        { accountId: alice.mainAccountId, permissions: ['read'] },
      );
      const creds = { apiKey: readOnly.body.apiKey, secretKey: readOnly.body.secretKey };
      expect((await signedRequest(base, 'GET', '/openapi/v1/account', creds, { timestamp: now() })).status).toBe(200);
      const transfer = await signedRequest(base, 'POST', '/openapi/v1/transfer', creds, {
        timestamp: now(),
        query: { tokenId: 'USDT', amount: '1', toAccountType: 3 },
      });
      expect(transfer).toMatchObject({ status: 403, body: { code: -2015 } });
      expect((await adminCall(base, token, 'DELETE', `/admin/v1/api-keys/${creds.apiKey}`)).status).toBe(200);
      expect(await signedRequest(base, 'GET', '/openapi/v1/account', creds, { timestamp: now() })).toMatchObject({
        status: 401,
        body: { code: -2015 },
      });
      const listed = await adminCall<{ apiKey: string }[]>(
        base,
        token,
        'GET',
        `/admin/v1/api-keys?accountId=${alice.mainAccountId}`,
      );
      // The revoked key is gone from the list; alice's own key (and any other live one) stays.
      expect(listed.body.map((k) => k.apiKey)).toContain(alice.key.apiKey);
      expect(listed.body.map((k) => k.apiKey)).not.toContain(creds.apiKey);
      expect(JSON.stringify(listed.body)).not.toContain('secret');
    });

    it('refuses a parameter repeated in the query with -1101', async () => {
      const answer = await signedRequest(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
        timestamp: now(),
        query: { limit: 5 },
        headers: {},
      });
      expect(answer.status).toBe(200);
      const repeated = await http(
        base,
        'GET',
        `/openapi/v1/balance_flow?limit=1&limit=2&timestamp=${now()}&signature=${'0'.repeat(64)}`,
        { headers: { 'X-SERVICE-KEY': alice.key.apiKey } },
      );
      expect(repeated.body).toMatchObject({ code: -1101 });
    });
  });

  describe('transfers and balance flow', () => {
    let sub: { accountId: string; accountIndex: number };
    let subKey: { apiKey: string; secretKey: string };

    beforeAll(async () => {
      sub = (
        await adminCall<{ accountId: string; accountIndex: number }>(
          base,
          token,
          'POST',
          `/admin/v1/users/${alice.userId}/sub-accounts`,
          { accountName: 'bot' },
        )
      ).body;
      subKey = (
        await adminCall<{ apiKey: string; secretKey: string }>(base, token, 'POST', '/admin/v1/api-keys', {
          accountId: sub.accountId,
          permissions: ['read', 'trade'],
        })
      ).body;
    });

    it('lists the main accounts of types 1 and 3 and the sub-accounts', async () => {
      const answer = await signedRequest<{ accountType: number; accountIndex: number; accountName: string }[]>(
        base,
        'POST',
        '/openapi/v1/subAccount/query',
        alice.key,
        { timestamp: now() },
      );
      expect(answer.body.map((a) => [a.accountType, a.accountIndex, a.accountName])).toEqual([
        [1, 0, ''],
        [1, 1, 'bot'],
        [3, 0, ''],
      ]);
      const own = await signedRequest<unknown[]>(base, 'POST', '/openapi/v1/subAccount/query', subKey, {
        timestamp: now(),
      });
      expect(own.body).toEqual([{ accountId: sub.accountId, accountName: 'bot', accountType: 1, accountIndex: 1 }]);
    });

    it('moves funds main → sub with a main key and sub → main with a sub key, as USER_ACCOUNT_TRANSFER flows', async () => {
      const out = await signedRequest(base, 'POST', '/openapi/v1/transfer', alice.key, {
        timestamp: now(),
        query: { tokenId: 'USDT', amount: '100', toAccountType: 1, toAccountIndex: sub.accountIndex },
      });
      expect(out).toMatchObject({ status: 200, body: { success: 'true' } });
      const back = await signedRequest(base, 'POST', '/openapi/v1/transfer', subKey, {
        timestamp: now(),
        query: { tokenId: 'USDT', amount: '40.5' },
      });
      expect(back).toMatchObject({ status: 200, body: { success: 'true' } });
      const subAccount = await signedRequest<{ balances: { asset: string; free: string }[] }>(
        base,
        'GET',
        '/openapi/v1/account',
        subKey,
        { timestamp: now() },
      );
      expect(subAccount.body.balances.find((b) => b.asset === 'USDT')?.free).toBe('59.50000000');
      const flows = await signedRequest<unknown[]>(base, 'POST', '/openapi/v1/balance_flow', alice.key, {
        timestamp: now(),
        query: { tokenId: 'USDT' },
      });
      const parsed = flows.body.map((f) => balanceFlowSchema.parse(f));
      expect(parsed.map((f) => [f.flowType, f.flowTypeValue, f.change, f.total])).toEqual([
        ['USER_ACCOUNT_TRANSFER', 51, '40.50000000', '940.50000000'],
        ['USER_ACCOUNT_TRANSFER', 51, '-100.00000000', '900.00000000'],
        ['DEPOSIT', 4, '1000.00000000', '1000.00000000'],
      ]);
    });

    it('pages balance flow with fromFlowId (older) and endFlowId (newer), newest first', async () => {
      const all = (
        await signedRequest<{ id: string }[]>(base, 'GET', '/openapi/v1/balance_flow', alice.key, { timestamp: now() })
      ).body;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const ids = all.map((f) => BigInt(f.id));
      expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
      const older = (
        await signedRequest<{ id: string }[]>(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
          timestamp: now(),
          query: { fromFlowId: all[0]!.id },
        })
      ).body;
      expect(older.map((f) => f.id)).toEqual(all.slice(1).map((f) => f.id));
      const newer = (
        await signedRequest<{ id: string }[]>(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
          timestamp: now(),
          query: { endFlowId: all[all.length - 1]!.id, limit: 1 },
        })
      ).body;
      expect(newer.map((f) => f.id)).toEqual([all[0]!.id]);
      const bySub = (
        await signedRequest<{ accountId: string }[]>(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
          timestamp: now(),
          query: { accountType: 1, accountIndex: sub.accountIndex },
        })
      ).body;
      expect(new Set(bySub.map((f) => f.accountId))).toEqual(new Set([sub.accountId]));
      expect(
        (
          await signedRequest(base, 'GET', '/openapi/v1/balance_flow', subKey, {
            timestamp: now(),
            query: { accountType: 1, accountIndex: 0 },
          })
        ).body,
      ).toMatchObject({ code: -2015 });
      expect(
        (
          await signedRequest(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
            timestamp: now(),
            query: { startTime: 5, endTime: 4 },
          })
        ).body,
      ).toMatchObject({ code: -4001 });
      expect(
        (
          await signedRequest(base, 'GET', '/openapi/v1/balance_flow', alice.key, {
            timestamp: now(),
            query: { limit: 501 },
          })
        ).body,
      ).toMatchObject({ code: -1130 });
    });

    it.each([
      ['a sub-account key naming an account', 'sub', { tokenId: 'USDT', amount: '1', toAccountType: 1 }, -2015],
      [
        'neither side the main account',
        'main',
        { tokenId: 'USDT', amount: '1', fromAccountType: 1, fromAccountIndex: 1, toAccountType: 3 },
        -2015,
      ],
      ['a main key without the destination', 'main', { tokenId: 'USDT', amount: '1' }, -1102],
      [
        'an account that does not exist',
        'main',
        { tokenId: 'USDT', amount: '1', toAccountType: 1, toAccountIndex: 9 },
        -1130,
      ],
      [
        'the same account on both sides',
        'main',
        { tokenId: 'USDT', amount: '1', toAccountType: 1, toAccountIndex: 0 },
        -1130,
      ],
      ['too little balance', 'main', { tokenId: 'USDT', amount: '100000', toAccountType: 3 }, -1131],
      ['an unknown token', 'main', { tokenId: 'DOGE', amount: '1', toAccountType: 3 }, -1130],
      ['a negative amount', 'main', { tokenId: 'USDT', amount: '-1', toAccountType: 3 }, -1100],
      ['an exponent', 'main', { tokenId: 'USDT', amount: '1e2', toAccountType: 3 }, -1100],
      ['more decimals than the asset has', 'main', { tokenId: 'USDT', amount: '0.000000001', toAccountType: 3 }, -1130],
      ['1e309', 'main', { tokenId: 'USDT', amount: '1e309', toAccountType: 3 }, -1100],
      ['an empty amount', 'main', { tokenId: 'USDT', amount: '', toAccountType: 3 }, -1102],
      ['a 400-digit amount', 'main', { tokenId: 'USDT', amount: '9'.repeat(400), toAccountType: 3 }, -1100],
    ])('refuses a transfer with %s and changes nothing', async (_what, who, query, code) => {
      const before = (await adminCall<unknown>(base, token, 'GET', `/admin/v1/accounts/${alice.mainAccountId}`)).body;
      const answer = await signedRequest(base, 'POST', '/openapi/v1/transfer', who === 'main' ? alice.key : subKey, {
        timestamp: now(),
        query,
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(errorBodySchema.parse(answer.body).code).toBe(code);
      expect((await adminCall<unknown>(base, token, 'GET', `/admin/v1/accounts/${alice.mainAccountId}`)).body).toEqual(
        before,
      );
    });

    it('lets 100 concurrent transfers that together would overdraw move exactly what there is', async () => {
      const bob = await createFundedUser(base, token, { USDT: '1' });
      const attempts = await Promise.all(
        Array.from({ length: 100 }, () =>
          signedRequest(base, 'POST', '/openapi/v1/transfer', bob.key, {
            timestamp: now(),
            query: { tokenId: 'USDT', amount: '0.03', toAccountType: 3 },
          }),
        ),
      );
      const ok = attempts.filter((a) => a.status === 200).length;
      expect(ok).toBe(33);
      expect(attempts.filter((a) => a.status === 400).every((a) => (a.body as { code: number }).code === -1131)).toBe(
        true,
      );
      const main = await adminCall<{ balances: { asset: string; free: string }[] }>(
        base,
        token,
        'GET',
        `/admin/v1/accounts/${bob.mainAccountId}`,
      );
      const contracts = await signedRequest(base, 'GET', '/openapi/contract/v1/account', bob.key, { timestamp: now() });
      expect(main.body.balances.find((b) => b.asset === 'USDT')?.free).toBe('0.01000000');
      expect(contracts.body).toMatchObject({ USDT: { total: '0.99', availableMargin: '0.99' } });
    });
  });
});
