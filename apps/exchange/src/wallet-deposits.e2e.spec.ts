import 'reflect-metadata';
import { depositOrderViewSchema } from '@exchange/api-gateway';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;

// Each step waits for the pipeline; on a loaded shared machine 100 concurrent requests take more than jest's 5 s.
jest.setTimeout(60_000);

/** Deposits through the wallet, deposit addresses and the address book, via the operator API and REST. */
describe('deposits and address books', () => {
  let exchange: TestExchange;
  let token: string;
  let user: TestUser;
  const admin = <T = Json>(method: string, path: string, body?: unknown) =>
    adminCall<T>(exchange.baseUrl, token, method, path, body);
  const deposits = (query: Record<string, string | number> = {}) =>
    signedRequest<Json[]>(exchange.baseUrl, 'GET', '/openapi/v1/depositOrders', user.key, { query });
  const free = async (asset: string) =>
    (
      await signedRequest<{ balances: { asset: string; free: string }[] }>(
        exchange.baseUrl,
        'GET',
        '/openapi/v1/account',
        user.key,
      )
    ).body.balances.find((b) => b.asset === asset)!.free;

  beforeAll(async () => {
    exchange = await startTestExchange();
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    user = await createFundedUser(exchange.baseUrl, token);
  }, 60_000);
  afterAll(async () => exchange.close(), 60_000);

  it('assigns one deposit address per account, token and chain (USDT on OMNI by default)', async () => {
    const btc = await admin<Json>('POST', '/admin/v1/deposit-addresses', {
      accountId: user.mainAccountId,
      tokenId: 'BTC',
    });
    expect(btc.body).toEqual({
      address: expect.stringMatching(/^ex1/),
      addressTag: '',
      tokenId: 'BTC',
      chainType: 'BTC',
    });
    expect(
      (await admin('POST', '/admin/v1/deposit-addresses', { accountId: user.mainAccountId, tokenId: 'BTC' })).body,
    ).toEqual(btc.body);
    const omni = await admin<Json>('POST', '/admin/v1/deposit-addresses', {
      accountId: user.mainAccountId,
      tokenId: 'USDT',
    });
    const trc = await admin<Json>('POST', '/admin/v1/deposit-addresses', {
      accountId: user.mainAccountId,
      tokenId: 'USDT',
      chainType: 'TRC20',
    });
    expect(omni.body).toMatchObject({ chainType: 'OMNI' });
    expect(trc.body).toMatchObject({ chainType: 'TRC20' });
    expect(trc.body.address).not.toBe(omni.body.address);
    expect(
      (
        await admin('POST', '/admin/v1/deposit-addresses', {
          accountId: user.mainAccountId,
          tokenId: 'USDT',
          chainType: 'SOL',
        })
      ).body,
    ).toMatchObject({ code: -1130 });
    expect(
      (await admin('POST', '/admin/v1/deposit-addresses', { accountId: '42', tokenId: 'BTC' })).body,
    ).toMatchObject({ code: -1130 });
  });

  it("credits a deposit once, when its confirmations reach the asset's count, and lists it from then on", async () => {
    const deposit = (confirmations?: number) =>
      admin<Json>('POST', '/admin/v1/deposits', {
        accountId: user.mainAccountId,
        asset: 'BTC',
        amount: '0.7',
        txid: 'tx-conf',
        ...(confirmations === undefined ? {} : { confirmations }),
      });
    expect((await deposit(1)).body).toMatchObject({
      status: 'CONFIRMING',
      confirmations: 1,
      requiredConfirmations: 2,
      quantity: '0.7',
    });
    expect(await free('BTC')).toBe('0.00000000');
    expect((await deposits()).body).toEqual([]);
    const credited = await deposit(2);
    expect(credited.body).toMatchObject({ status: 'CREDITED', confirmations: 2, txid: 'tx-conf' });
    expect(await free('BTC')).toBe('0.70000000');
    for (const again of [await deposit(2), await deposit()])
      expect(again.body).toMatchObject({ status: 'CREDITED', orderId: credited.body.orderId });
    expect(await free('BTC')).toBe('0.70000000');
    const listed = await deposits();
    expect(listed.body.map((d) => depositOrderViewSchema.parse(d))).toEqual([
      {
        time: expect.any(String),
        orderId: credited.body.orderId,
        token: 'BTC',
        address: expect.stringMatching(/^ex1/),
        addressTag: '',
        fromAddress: 'simulated-chain',
        fromAddressTag: '',
        quantity: '0.7',
      },
    ]);
  });

  it('pages depositOrders: fromId gives ids above it, oldest first; otherwise the most recent first', async () => {
    for (const amount of ['1', '2', '3'])
      await admin('POST', '/admin/v1/deposits', { accountId: user.mainAccountId, asset: 'ETH', amount });
    const all = (await deposits()).body as { orderId: string; quantity: string; time: string }[];
    expect(all.map((d) => d.quantity)).toEqual(['3', '2', '1', '0.7']);
    const after = (await deposits({ fromId: all[3]!.orderId, limit: 2 })).body as { quantity: string }[];
    expect(after.map((d) => d.quantity)).toEqual(['1', '2']);
    expect(
      (await deposits({ startTime: Number(all[0]!.time), endTime: Number(all[0]!.time) })).body.map((d) => d.quantity),
    ).toContain('3');
    expect((await deposits({ limit: 1001 })).body).toMatchObject({ code: -1130 });
    expect((await deposits({ startTime: 2, endTime: 1 })).body).toMatchObject({ code: -4001 });
  });

  it("refuses a deposit to another account's address, of an unknown asset, or with a bad amount, and credits nothing", async () => {
    const other = await createFundedUser(exchange.baseUrl, token);
    const address = (
      (await admin<Json>('POST', '/admin/v1/deposit-addresses', { accountId: other.mainAccountId, tokenId: 'BTC' }))
        .body as { address: string }
    ).address;
    expect(
      (await admin('POST', '/admin/v1/deposits', { accountId: user.mainAccountId, asset: 'BTC', amount: '1', address }))
        .body,
    ).toMatchObject({ code: -1130 });
    expect(
      (await admin('POST', '/admin/v1/deposits', { accountId: user.mainAccountId, asset: 'DOGE', amount: '1' })).body,
    ).toMatchObject({ code: -1130 });
    expect(
      (await admin('POST', '/admin/v1/deposits', { accountId: user.mainAccountId, asset: 'BTC', amount: '1e3' }))
        .status,
    ).toBe(400);
    expect(await free('BTC')).toBe('0.70000000');
  });

  it('keeps an address book per account: add, list, refuse a repeat or a foreign exchange address, remove', async () => {
    const add = (body: Json) =>
      admin<Json>('POST', '/admin/v1/withdrawal-addresses', { accountId: user.mainAccountId, tokenId: 'ETH', ...body });
    const entry = await add({ address: '0xabc', addressExt: 'memo' });
    expect(entry.body).toMatchObject({
      id: expect.any(String),
      accountId: user.mainAccountId,
      tokenId: 'ETH',
      chainType: 'ETH',
      address: '0xabc',
      addressExt: 'memo',
    });
    expect((await add({ address: '0xabc', addressExt: 'memo' })).body).toMatchObject({
      code: -1130,
      msg: expect.stringContaining(String(entry.body.id)),
    });
    expect((await add({ address: 'ex1forgedx1xabcdef0123' })).body).toMatchObject({ code: -1130 });
    const own = (
      (await admin<Json>('POST', '/admin/v1/deposit-addresses', { accountId: user.mainAccountId, tokenId: 'ETH' }))
        .body as { address: string }
    ).address;
    expect((await add({ address: own })).body).toMatchObject({ code: -1130 });
    expect((await admin<Json[]>('GET', `/admin/v1/withdrawal-addresses?accountId=${user.mainAccountId}`)).body).toEqual(
      [entry.body],
    );
    expect((await admin('DELETE', `/admin/v1/withdrawal-addresses/${entry.body.id}`)).body).toEqual({});
    expect((await admin('DELETE', `/admin/v1/withdrawal-addresses/${entry.body.id}`)).body).toMatchObject({
      code: -1130,
    });
    expect((await admin<Json[]>('GET', `/admin/v1/withdrawal-addresses?accountId=${user.mainAccountId}`)).body).toEqual(
      [],
    );
  });
});
