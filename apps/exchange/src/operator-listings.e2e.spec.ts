import 'reflect-metadata';
import { adminDepositSchema, auditRecordSchema, userListSchema, withdrawalOrderSchema } from '@exchange/api-gateway';
import { z } from 'zod';
import { createFundedUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

/** The operator listings the console reads: users, withdrawals waiting for an audit, deposits, the audit trail. */
describe('operator listings', () => {
  let exchange: TestExchange;
  let token: string;
  beforeAll(async () => {
    exchange = await startTestExchange();
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
  });
  afterAll(() => exchange?.close());

  it('lists users with their accounts, pending withdrawals, deposits and the audit trail, newest first, behind the operator token', async () => {
    const base = exchange.baseUrl;
    const older = await createFundedUser(base, token, { BTC: '1' });
    const newer = await createFundedUser(base, token, { BTC: '2' });
    const address = 'bc1qlistingsaddress0000000000000000000000';
    await adminCall(base, token, 'POST', '/admin/v1/withdrawal-addresses', {
      accountId: newer.mainAccountId,
      tokenId: 'BTC',
      address,
    });
    const small = await signedRequest<{ orderId: string; status: number }>(
      base,
      'POST',
      '/openapi/v1/withdraw',
      newer.key,
      { body: { tokenId: 'BTC', address, withdrawalQuantity: '0.01', clientOrderId: 'small' } },
    );
    const large = await signedRequest<{ orderId: string; status: number }>(
      base,
      'POST',
      '/openapi/v1/withdraw',
      newer.key,
      { body: { tokenId: 'BTC', address, withdrawalQuantity: '0.5', clientOrderId: 'large' } },
    );
    expect([small.body.status, large.body.status]).toEqual([5, 1]);

    const users = await adminCall<z.infer<typeof userListSchema>>(base, token, 'GET', '/admin/v1/users?limit=2');
    expect(userListSchema.parse(users.body).map((u) => u.userId)).toEqual([newer.userId, older.userId]);
    expect(users.body[0]!.accounts.map((a) => a.accountId)).toEqual(newer.accounts.map((a) => a.accountId));

    const waiting = await adminCall(base, token, 'GET', '/admin/v1/withdrawals');
    expect(
      z
        .array(withdrawalOrderSchema)
        .parse(waiting.body)
        .map((w) => w.orderId),
    ).toEqual([large.body.orderId]);

    const deposits = await adminCall(base, token, 'GET', '/admin/v1/deposits?limit=2');
    expect(
      z
        .array(adminDepositSchema)
        .parse(deposits.body)
        .map((d) => [d.token, d.quantity]),
    ).toEqual([
      ['BTC', '2'],
      ['BTC', '1'],
    ]);

    const audit = await adminCall(base, token, 'GET', '/admin/v1/audit?limit=3');
    const records = z.array(auditRecordSchema).parse(audit.body);
    expect(records.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /admin/v1/deposits?limit=2',
      'GET /admin/v1/withdrawals',
      'GET /admin/v1/users?limit=2',
    ]);

    expect((await adminCall(base, 'wrong', 'GET', '/admin/v1/users')).status).toBe(401);
    expect((await adminCall<{ code: number }>(base, token, 'GET', '/admin/v1/audit?limit=0')).body.code).toBe(-1130);
  });
});
