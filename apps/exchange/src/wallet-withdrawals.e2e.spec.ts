import 'reflect-metadata';
import { withdrawalOrderSchema } from '@exchange/api-gateway';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;

// Each step waits for the pipeline; on a loaded shared machine 100 concurrent requests take more than jest's 5 s.
jest.setTimeout(60_000);
type Order = { orderId: string; status: number; statusCode: string };

/**
 * Withdrawals through REST and the operator API, on the embedded log (or CI's Kafka): every status
 * path from request to final state, the holds and what they leave in balances and the balance
 * flow, internal transfers, and every refusal leaving nothing behind.
 */
describe('withdrawals', () => {
  let exchange: TestExchange;
  let token: string;
  let alice: TestUser;
  const admin = <T = Json>(method: string, path: string, body?: unknown) =>
    adminCall<T>(exchange.baseUrl, token, method, path, body);
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { query });
  const balance = async (user: TestUser, asset: string) => {
    const account = await call<{ balances?: { asset: string; free: string; locked: string }[] }>(
      user,
      'GET',
      '/openapi/v1/account',
    );
    // A read the projection could not serve in time answers 503 / -1016 (a client retries it): inside a wait, that is "not yet".
    const b = account.body.balances?.find((x) => x.asset === asset);
    return { free: b?.free, locked: b?.locked };
  };
  const withdraw = (user: TestUser, query: Record<string, string>) =>
    call<Order & Json>(user, 'POST', '/openapi/v1/withdraw', { tokenId: 'BTC', address: 'bc1qexternal', ...query });
  const book = (accountId: string, address: string, tokenId = 'BTC', extra: Json = {}) =>
    admin<{ id: string }>('POST', '/admin/v1/withdrawal-addresses', { accountId, tokenId, address, ...extra });

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token, { BTC: '10', USDT: '100000' });
    expect((await book(alice.mainAccountId, 'bc1qexternal')).status).toBe(200);
  }, 60_000);
  afterAll(async () => exchange.close(), 60_000);

  it('goes 1 → 3 → 5 → 8 → 6 with the operator and the chain; the hold is locked until it is debited', async () => {
    const answer = await withdraw(alice, { clientOrderId: 'path-ok', withdrawalQuantity: '1' });
    expect(answer.status).toBe(200);
    const order = withdrawalOrderSchema.parse(answer.body);
    expect(order).toMatchObject({
      status: 1,
      statusCode: 'BROKER_AUDITING_STATUS',
      quantity: '1',
      arriveQuantity: '1',
      fee: '0.0005',
      feeTokenId: 'BTC',
      tokenId: 'BTC',
      requiredConfirmNum: 2,
      confirmNum: 0,
      isInternalTransfer: false,
      clientOrderId: 'path-ok',
    });
    expect(await balance(alice, 'BTC')).toEqual({ free: '8.99950000', locked: '1.00050000' });
    expect((await call(alice, 'GET', '/openapi/v1/withdraw/detail', { orderId: order.orderId })).body).toEqual(
      answer.body,
    );

    expect((await admin<Order>('POST', `/admin/v1/withdrawals/${order.orderId}/approve`)).body).toMatchObject({
      status: 3,
      statusCode: 'AUDITING_STATUS',
    });
    expect((await admin<Order>('POST', `/admin/v1/withdrawals/${order.orderId}/approve`)).body).toMatchObject({
      status: 5,
      statusCode: 'PROCESSING_STATUS',
    });
    expect(
      (await admin<Order>('POST', `/admin/v1/chain/withdrawals/${order.orderId}/confirm`, { confirmations: 1 })).body,
    ).toMatchObject({ status: 8, confirmNum: 1, txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await admin<Order>('POST', `/admin/v1/chain/withdrawals/${order.orderId}/confirm`)).body).toMatchObject({
      status: 6,
      statusCode: 'WITHDRAWAL_SUCCESS_STATUS',
      confirmNum: 2,
    });
    await waitFor(
      async () => (await balance(alice, 'BTC')).locked === '0.00000000',
      'the ledger to settle the withdrawal',
    );
    expect(await balance(alice, 'BTC')).toEqual({ free: '8.99950000', locked: '0.00000000' });
    const flows = await call<{ flowType: string; change: string }[]>(alice, 'GET', '/openapi/v1/balance_flow', {
      tokenId: 'BTC',
      limit: 2,
    });
    expect(flows.body.map((f) => [f.flowType, f.change])).toEqual([
      ['FEE', '-0.00050000'],
      ['WITHDRAW', '-1.00000000'],
    ]);
    expect((await admin('POST', `/admin/v1/withdrawals/${order.orderId}/approve`)).body).toMatchObject({ code: -1130 });
    expect((await admin('POST', `/admin/v1/chain/withdrawals/${order.orderId}/fail`)).body).toMatchObject({
      code: -1130,
    });
  });

  it.each([
    ['rejected by the broker (1→2)', ['reject'], 2],
    ['rejected by the platform (3→4)', ['approve', 'reject'], 4],
    ['failed before mining (5→7)', ['approve', 'approve', 'fail'], 7],
    ['failed after mining (8→7)', ['approve', 'approve', 'mine', 'fail'], 7],
  ])('%s releases the hold', async (_name, steps, final) => {
    const before = await balance(alice, 'BTC');
    const order = (await withdraw(alice, { clientOrderId: `path-${final}-${steps.length}`, withdrawalQuantity: '0.5' }))
      .body;
    expect(order.status).toBe(1);
    const paths: Record<string, [string, unknown]> = {
      approve: [`/admin/v1/withdrawals/${order.orderId}/approve`, undefined],
      reject: [`/admin/v1/withdrawals/${order.orderId}/reject`, { reason: 'compliance' }],
      mine: [`/admin/v1/chain/withdrawals/${order.orderId}/confirm`, { confirmations: 1 }],
      fail: [`/admin/v1/chain/withdrawals/${order.orderId}/fail`, {}],
    };
    let last: Json = {};
    for (const step of steps) last = (await admin('POST', ...paths[step]!)).body as Json;
    expect(last).toMatchObject({ status: final });
    await waitFor(
      async () => JSON.stringify(await balance(alice, 'BTC')) === JSON.stringify(before),
      'the hold to be released',
    );
    expect(
      (await call(alice, 'GET', '/openapi/v1/withdraw/detail', { clientOrderId: order.clientOrderId as string })).body,
    ).toMatchObject({ status: final });
  });

  it('approves below the configured amount at once (1→3→5) and lists withdrawals newest first', async () => {
    const small = await withdraw(alice, { clientOrderId: 'auto-1', withdrawalQuantity: '0.01' });
    expect(small.body).toMatchObject({ status: 5, statusCode: 'PROCESSING_STATUS' });
    const listed = await call<Order[]>(alice, 'GET', '/openapi/v1/withdrawalOrders', { token: 'BTC' });
    expect(listed.body[0]).toMatchObject({ orderId: small.body.orderId, status: 5 });
    const ids = listed.body.map((o) => BigInt(o.orderId));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
    const older = await call<Order[]>(alice, 'GET', '/openapi/v1/withdrawalOrders', {
      fromId: small.body.orderId,
      limit: 2,
    });
    expect(older.body).toHaveLength(2);
    expect(older.body.every((o) => BigInt(o.orderId) < BigInt(small.body.orderId))).toBe(true);
    expect((await call<Order[]>(alice, 'GET', '/openapi/v1/withdrawalOrders', { token: 'USDT' })).body).toEqual([]);
  });

  it('settles a withdrawal to another account of the exchange internally (1→3→5→6), free, as a DEPOSIT of the receiver', async () => {
    const bob = await createFundedUser(exchange.baseUrl, token);
    const address = (
      await admin<{ address: string }>('POST', '/admin/v1/deposit-addresses', {
        accountId: bob.mainAccountId,
        tokenId: 'BTC',
      })
    ).body.address;
    expect((await book(alice.mainAccountId, address)).status).toBe(200);
    const before = await balance(alice, 'BTC');
    const answer = await withdraw(alice, { clientOrderId: 'internal-1', address, withdrawalQuantity: '0.05' });
    expect(answer.body).toMatchObject({ status: 6, isInternalTransfer: true, fee: '0' });
    await waitFor(async () => (await balance(bob, 'BTC')).free === '0.05000000', 'the receiver to be credited');
    await waitFor(async () => (await balance(alice, 'BTC')).locked === before.locked, 'the sender to be debited');
    const deposits = await call<Json[]>(bob, 'GET', '/openapi/v1/depositOrders');
    expect(deposits.body).toEqual([expect.objectContaining({ token: 'BTC', quantity: '0.05', address })]);
    const flows = await call<{ flowType: string; change: string }[]>(bob, 'GET', '/openapi/v1/balance_flow', {
      tokenId: 'BTC',
    });
    expect(flows.body.map((f) => [f.flowType, f.change])).toEqual([['DEPOSIT', '0.05000000']]);
  });

  it.each([
    ['an address not in the book', { address: 'bc1qstranger', withdrawalQuantity: '1' }, 400, -1130],
    ['a missing quantity', {}, 400, -1102],
    ['a quantity below the minimum', { withdrawalQuantity: '0.0001' }, 400, -1130],
    ['too many decimals', { withdrawalQuantity: '0.123456789' }, 400, -1130],
    ['a negative quantity', { withdrawalQuantity: '-1' }, 400, -1100],
    ['an unknown token', { tokenId: 'DOGE', withdrawalQuantity: '1' }, 400, -1130],
    ['too little balance', { withdrawalQuantity: '1000' }, 400, -1131],
  ])('refuses %s and holds nothing', async (_what, query, status, code) => {
    const before = await balance(alice, 'BTC');
    const answer = await withdraw(alice, { clientOrderId: `bad-${code}-${Object.keys(query).join('')}`, ...query });
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code });
    expect(await balance(alice, 'BTC')).toEqual(before);
  });

  it('checks USDT chains against the address book (OMNI by default); a chainType of another asset is ignored', async () => {
    await book(alice.mainAccountId, 'TXtrc20address', 'USDT', { chainType: 'TRC20' });
    const usdt = (query: Record<string, string>) =>
      withdraw(alice, { tokenId: 'USDT', address: 'TXtrc20address', withdrawalQuantity: '2000', ...query });
    expect((await usdt({ clientOrderId: 'u-1' })).body).toMatchObject({ code: -1130 });
    expect((await usdt({ clientOrderId: 'u-2', chainType: 'BEP20' })).body).toMatchObject({ code: -1130 });
    expect((await usdt({ clientOrderId: 'u-3', chainType: 'TRC20' })).body).toMatchObject({
      status: 1,
      chainType: 'TRC20',
      fee: '1',
    });
    expect(
      (await withdraw(alice, { clientOrderId: 'btc-chain', withdrawalQuantity: '0.01', chainType: 'ERC20' })).body,
    ).toMatchObject({ chainType: 'BTC' });
  });

  it('refuses a key without the withdraw permission and an account that may not withdraw with -2015', async () => {
    const reader = await createFundedUser(exchange.baseUrl, token, { BTC: '1' }, ['read', 'trade']);
    await book(reader.mainAccountId, 'bc1qexternal');
    const noPermission = await withdraw(reader, { clientOrderId: 'p-1', withdrawalQuantity: '0.5' });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body).toMatchObject({ code: -2015 });
    const blocked = await createFundedUser(exchange.baseUrl, token, { BTC: '1' });
    await book(blocked.mainAccountId, 'bc1qexternal');
    await admin('POST', `/admin/v1/accounts/${blocked.mainAccountId}/flags`, { canWithdraw: false });
    const refused = await withdraw(blocked, { clientOrderId: 'p-2', withdrawalQuantity: '0.5' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: -2015 });
    expect(await balance(blocked, 'BTC')).toEqual({ free: '1.00000000', locked: '0.00000000' });
  });

  it('answers a repeated clientOrderId with the same withdrawal, refuses other parameters with -1141, and 50 at once make one withdrawal', async () => {
    const first = await withdraw(alice, { clientOrderId: 'idem-1', withdrawalQuantity: '0.2' });
    expect((await withdraw(alice, { clientOrderId: 'idem-1', withdrawalQuantity: '0.20' })).body).toEqual(first.body);
    expect((await withdraw(alice, { clientOrderId: 'idem-1', withdrawalQuantity: '0.3' })).body).toMatchObject({
      code: -1141,
    });

    const carol = await createFundedUser(exchange.baseUrl, token, { BTC: '5' });
    await book(carol.mainAccountId, 'bc1qexternal');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => withdraw(carol, { clientOrderId: 'same-50', withdrawalQuantity: '0.3' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.orderId)).size).toBe(1);
    expect((await call<Json[]>(carol, 'GET', '/openapi/v1/withdrawalOrders')).body).toHaveLength(1);
    expect(await balance(carol, 'BTC')).toEqual({ free: '4.69950000', locked: '0.30050000' });
  });

  it('lets 100 concurrent withdrawals hold no more than the balance', async () => {
    const dave = await createFundedUser(exchange.baseUrl, token, { BTC: '1' });
    await book(dave.mainAccountId, 'bc1qexternal');
    // 0.05 + 0.0005 fee each: 19 fit in 1 BTC, the 20th would overdraw.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => withdraw(dave, { clientOrderId: `many-${i}`, withdrawalQuantity: '0.05' })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    expect(answers.filter((a) => (a.body as Json).code === -1131)).toHaveLength(81);
    expect(await balance(dave, 'BTC')).toEqual({ free: '0.04050000', locked: '0.95950000' });
  });

  it("answers detail by orderId or clientOrderId only for the caller's own withdrawals", async () => {
    expect((await call(alice, 'GET', '/openapi/v1/withdraw/detail')).body).toMatchObject({ code: -1105 });
    expect((await call(alice, 'GET', '/openapi/v1/withdraw/detail', { clientOrderId: 'no-such' })).body).toMatchObject({
      code: -2013,
    });
    const someone = await createFundedUser(exchange.baseUrl, token);
    expect(
      (await call(someone, 'GET', '/openapi/v1/withdraw/detail', { clientOrderId: 'path-ok' })).body,
    ).toMatchObject({ code: -2013 });
    expect((await admin('POST', '/admin/v1/withdrawals/123/approve')).body).toMatchObject({ code: -2013 });
  });
});
