import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@exchange/bootstrap';
import { type ContractBalanceAfter, type ContractOrderRecord, type PositionAfter, Topics } from '@exchange/contracts';
import { ManualClock } from '@exchange/platform';
import { UserStreamModule } from '@exchange/user-stream';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { readLedgerEvents } from '../../../test/support/ledger-events';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { type Frame, StreamClient } from '../../../test/support/stream-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

// Waits on a shared machine can pass Jest's default 5 s; each wait has its own deadline.
jest.setTimeout(60_000);

/** Every key of spec 6.3 and of 6.4 (with the event time E, as the family sends it). */
const reportKeys = [
  'e',
  'E',
  's',
  'c',
  'S',
  'o',
  'f',
  'q',
  'p',
  'X',
  'i',
  'l',
  'z',
  'L',
  'n',
  'N',
  'u',
  'w',
  'm',
  'O',
  'Z',
  'C',
  'v',
].sort();
const positionKeys = ['e', 'E', 'A', 's', 'S', 'p', 'P', 'a', 'f', 'm', 'r'].sort();

/** E never goes back; the frames of one ledger event share it (report, positions, balance, in that order); the next event moves it forward. */
function expectEventTimeOrder(frames: Frame[]): void {
  const rank: Record<string, number> = {
    contractExecutionReport: 0,
    outboundContractPositionInfo: 1,
    outboundContractAccountInfo: 2,
    outboundAccountInfo: 2,
  };
  for (let i = 1; i < frames.length; i++) {
    const [before, after] = [frames[i - 1]!, frames[i]!];
    if (Number(after.E) === Number(before.E)) expect(rank[after.e!]).toBeGreaterThanOrEqual(rank[before.e!]!);
    else expect(Number(after.E)).toBeGreaterThan(Number(before.E));
  }
}

/**
 * Contract events with chosen numbers, published on ledger.events as the ledger journals them
 * (the domain's payload in the journal envelope, keyed by user, after the user's last sequence),
 * so every frame can be checked to the digit; the next describe drives real orders.
 */
describe('user data stream: contract events over a real ws client', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let alice: TestUser;
  let contractsId: string;
  let subContracts: { accountId: string; key: TestUser['key'] };
  let seq: number;
  const clients: StreamClient[] = [];

  const listenKeyOf = async (key: TestUser['key']): Promise<string> =>
    (
      await signedRequest<{ listenKey: string }>(exchange.baseUrl, 'POST', '/openapi/v1/userDataStream', key, {
        timestamp: clock.now(),
      })
    ).body.listenKey;
  const connect = async (key: TestUser['key']): Promise<StreamClient> => {
    const client = await StreamClient.connect(exchange.baseUrl, await listenKeyOf(key));
    clients.push(client);
    return client;
  };
  const publish = async (type: string, payload: Record<string, unknown>, ts: number): Promise<void> => {
    seq += 1;
    const value = JSON.stringify({
      type,
      v: 1,
      id: `contract-test-${seq}:0`,
      ts,
      payload: { userId: alice.userId, seq, commandId: `contract-test-${seq}`, ...payload },
    });
    await exchange.infrastructure.eventLog.publish([{ topic: Topics.ledgerEvents.name, key: alice.userId, value }]);
  };

  const record = (
    accountId: string,
    over: Partial<ContractOrderRecord> & { clientOrderId: string },
  ): ContractOrderRecord & { clientOrderId: string } => ({
    orderId: '990001',
    accountId,
    userId: alice.userId,
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY_OPEN',
    price: '60000',
    quantity: '10',
    leverage: '10',
    executedQty: '0',
    marginLocked: '60.72',
    marginLeft: '60.72',
    status: 'NEW',
    time: 4000,
    marketsVersion: 1,
    orderType: 'LIMIT',
    ...over,
  });
  const position = (accountId: string, over: Partial<PositionAfter> = {}): PositionAfter => ({
    accountId,
    symbol: 'BTC-SWAP-USDT',
    side: 'LONG',
    size: '0',
    available: '0',
    opening: '10',
    entryValue: '0',
    avgPrice: '0',
    margin: '0',
    realizedPnl: '0',
    leverage: '10',
    flp: '0',
    ...over,
  });
  const usdt = (accountId: string, free: string, locked: string, positionMargin: string): ContractBalanceAfter => ({
    accountId,
    free,
    locked,
    positionMargin,
  });
  const fill = (
    accountId: string,
    orderId: string,
    quantity: string,
    executedQty: string,
    status: string,
    after: { position: PositionAfter; balance: ContractBalanceAfter },
  ) => ({
    tradeId: `${orderId}-${executedQty}`,
    accountId,
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY_OPEN',
    price: '59990.5',
    quantity,
    isMaker: true,
    fee: '0.047992',
    feeToken: 'USDT',
    pnl: '0',
    uncovered: '0',
    order: { orderId, executedQty, marginLeft: status === 'FILLED' ? '0' : '36.432', status },
    feeAccount: usdt('1', '0.1', '0', '0'),
    flows: [],
    ...after,
  });

  beforeAll(async () => {
    // The events published below are made up (the ledger's projection writes them too): no deposits back their USDT.
    exchange = await startTestExchange({ clock, env: { REDIS_URL: '' }, balanceInvariant: false });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token);
    contractsId = alice.accounts.find((a) => a.accountType === 3 && a.accountIndex === 0)!.accountId;
    const sub = await adminCall<{ accountId: string }>(
      exchange.baseUrl,
      token,
      'POST',
      `/admin/v1/users/${alice.userId}/sub-accounts`,
      { accountName: 'perps', accountType: 3 },
    );
    const key = await adminCall<TestUser['key']>(exchange.baseUrl, token, 'POST', '/admin/v1/api-keys', {
      accountId: sub.body.accountId,
      permissions: ['read', 'trade'],
    });
    subContracts = { accountId: sub.body.accountId, key: key.body };
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await exchange.close();
  });

  it("streams an order's NEW, partial fill and fill with every key of 6.3, the position after each fill with every key of 6.4, and the USDT, in E order", async () => {
    const main = await connect(alice.key);
    const own = await connect(subContracts.key);
    seq = Math.max(
      ...(await readLedgerEvents(exchange.infrastructure.eventLog))
        .filter((e) => e.payload.userId === alice.userId)
        .map((e) => e.payload.seq),
    );
    const t = clock.now();

    await publish(
      'ContractOrderPlaced',
      {
        order: record(contractsId, { clientOrderId: 'perp-1' }),
        balance: usdt(contractsId, '939.28', '60.72', '0'),
        position: position(contractsId),
      },
      t,
    );
    const afterPartial = {
      position: position(contractsId, {
        size: '4',
        available: '4',
        opening: '6',
        entryValue: '239.962',
        avgPrice: '59990.5',
        margin: '23.9962',
        flp: '54291.3',
      }),
      balance: usdt(contractsId, '939.526008', '36.432', '23.9962'),
    };
    await publish('ContractOrderFilled', fill(contractsId, '990001', '4', '4', 'PARTIALLY_FILLED', afterPartial), t);
    const afterFill = {
      position: position(contractsId, {
        size: '10',
        available: '10',
        opening: '0',
        entryValue: '599.905',
        avgPrice: '59990.5',
        margin: '59.9905',
        flp: '54291.3',
      }),
      balance: usdt(contractsId, '939.771016', '0', '59.9905'),
    };
    await publish('ContractOrderFilled', fill(contractsId, '990001', '6', '10', 'FILLED', afterFill), t + 1);
    // An order of the type-3 sub-account: its own stream only (the main stream carries the main contracts account).
    await publish(
      'ContractOrderPlaced',
      {
        order: record(subContracts.accountId, {
          orderId: '990002',
          clientOrderId: 'perp-sub',
          side: 'SELL_OPEN',
          leverage: '5',
          marginLocked: '120.72',
          marginLeft: '120.72',
        }),
        balance: usdt(subContracts.accountId, '879.28', '120.72', '0'),
        position: position(subContracts.accountId, { side: 'SHORT', leverage: '5' }),
      },
      t + 2,
    );

    await main.waitForFrames(
      'the fill, its position and the USDT after it',
      (f) => f.filter((x) => x.e === 'outboundContractAccountInfo').length >= 3,
    );
    const reports = main.of('contractExecutionReport');
    for (const r of reports) expect(Object.keys(r).sort()).toEqual(reportKeys);
    expect(reports[0]).toEqual({
      e: 'contractExecutionReport',
      E: String(t),
      s: 'BTC-SWAP-USDT',
      c: 'perp-1',
      S: 'BUY',
      o: 'LIMIT',
      f: 'GTC',
      q: '10',
      p: '60000',
      X: 'NEW',
      i: '990001',
      l: '0',
      z: '0',
      L: '0',
      n: '0',
      N: 'USDT',
      u: true,
      w: true,
      m: false,
      O: '4000',
      Z: '0',
      C: false,
      v: '10',
    });
    expect(reports.map((r) => [r.X, r.l, r.z, r.L, r.Z, r.n, r.m])).toEqual([
      ['NEW', '0', '0', '0', '0', '0', false],
      ['PARTIALLY_FILLED', '4', '4', '59990.5', '239962', '0.047992', true],
      ['FILLED', '6', '10', '59990.5', '599905', '0.047992', true],
    ]);
    const positions = main.of('outboundContractPositionInfo');
    for (const p of positions) expect(Object.keys(p).sort()).toEqual(positionKeys);
    expect(positions.at(-1)).toEqual({
      e: 'outboundContractPositionInfo',
      E: String(t + 2),
      A: contractsId,
      s: 'BTC-SWAP-USDT',
      S: 'LONG',
      p: '59990.5',
      P: '10',
      a: '10',
      f: '54291.3',
      m: '59.9905',
      r: '0',
    });
    expect(main.of('outboundContractAccountInfo').at(-1)).toEqual({
      e: 'outboundContractAccountInfo',
      E: t + 2,
      T: true,
      W: true,
      D: true,
      B: [{ a: 'USDT', f: '939.77101600', l: '59.99050000' }],
    });
    expect(main.frames.map((f) => f.e)).toEqual([
      'contractExecutionReport',
      'outboundContractAccountInfo',
      'contractExecutionReport',
      'outboundContractPositionInfo',
      'outboundContractAccountInfo',
      'contractExecutionReport',
      'outboundContractPositionInfo',
      'outboundContractAccountInfo',
    ]);
    expectEventTimeOrder(main.frames);

    await own.waitForFrames("the sub-account's order and its USDT", (f) =>
      f.some((x) => x.e === 'outboundAccountInfo'),
    );
    expect(own.frames).toEqual([
      expect.objectContaining({
        e: 'contractExecutionReport',
        c: 'perp-sub',
        S: 'SELL',
        C: false,
        v: '5',
        E: String(t + 2),
      }),
      {
        e: 'outboundAccountInfo',
        E: t + 2,
        T: true,
        W: true,
        D: true,
        B: [{ a: 'USDT', f: '879.28000000', l: '120.72000000' }],
      },
    ]);
  });

  it('streams a margin change, a close order and its end as positions and reports of the main contracts account', async () => {
    const main = await connect(alice.key);
    const t = clock.now() + 10;
    const held = { size: '10', entryValue: '599.905', avgPrice: '59990.5', opening: '0', flp: '54291.3' };
    await publish(
      'PositionMarginModified',
      {
        accountId: contractsId,
        symbol: 'BTC-SWAP-USDT',
        side: 'LONG',
        amount: '10',
        position: position(contractsId, { ...held, available: '10', margin: '69.9905', flp: '53291.3' }),
        balance: usdt(contractsId, '929.771016', '0', '69.9905'),
      },
      t,
    );
    const close = record(contractsId, {
      orderId: '990003',
      clientOrderId: 'perp-close',
      side: 'SELL_CLOSE',
      quantity: '3',
      leverage: '0',
      marginLocked: '0',
      marginLeft: '0',
      price: '61000',
    });
    await publish(
      'ContractOrderPlaced',
      {
        order: close,
        balance: usdt(contractsId, '929.771016', '0', '69.9905'),
        position: position(contractsId, { ...held, available: '7', margin: '69.9905' }),
      },
      t,
    );
    await publish(
      'ContractOrderEnded',
      {
        accountId: contractsId,
        symbol: 'BTC-SWAP-USDT',
        side: 'SELL_CLOSE',
        order: { orderId: '990003', executedQty: '0', marginLeft: '0', status: 'CANCELED' },
        released: '0',
        balance: usdt(contractsId, '929.771016', '0', '69.9905'),
        position: position(contractsId, { ...held, available: '10', margin: '69.9905' }),
      },
      t,
    );

    await main.waitForFrames('the close order canceled', (f) =>
      f.some((x) => x.e === 'contractExecutionReport' && x.X === 'CANCELED'),
    );
    await main.waitForFrames(
      'the available size back',
      (f) => f.filter((x) => x.e === 'outboundContractPositionInfo').length >= 3,
    );
    expect(main.frames.map((f) => [f.e, f.E, f.a ?? f.X ?? ''])).toEqual([
      ['outboundContractPositionInfo', String(t), '10'],
      ['outboundContractAccountInfo', t, ''],
      ['contractExecutionReport', String(t + 1), 'NEW'],
      ['outboundContractPositionInfo', String(t + 1), '7'],
      ['contractExecutionReport', String(t + 2), 'CANCELED'],
      ['outboundContractPositionInfo', String(t + 2), '10'],
    ]);
    expect(main.of('contractExecutionReport')[1]).toMatchObject({
      c: 'perp-close',
      S: 'SELL',
      C: true,
      v: '10',
      q: '3',
      p: '61000',
    });
    expectEventTimeOrder(main.frames);
  });
});

/**
 * The same from real orders through the gateway (CONTRACTS.md's BTC-SWAP-USDT: 0.001 BTC a
 * contract, maker 0.02%, taker 0.06%; the numbers as contract-trading.e2e.spec.ts works them).
 */
describe('user data stream: contract events of real orders', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let carol: TestUser;
  let dave: TestUser;
  const clients: StreamClient[] = [];
  const call = <T = Record<string, unknown>>(
    user: TestUser,
    method: string,
    path: string,
    query: Record<string, string | number> = {},
  ) => signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  let replica: NestFastifyApplication | undefined;
  const connect = async (user: TestUser, baseUrl = exchange.baseUrl): Promise<StreamClient> => {
    const client = await StreamClient.connect(
      baseUrl,
      (await call<{ listenKey: string }>(user, 'POST', '/openapi/v1/userDataStream')).body.listenKey,
    );
    clients.push(client);
    return client;
  };
  const order = async (
    user: TestUser,
    side: string,
    quantity: string,
    price: string,
    clientOrderId: string,
  ): Promise<string> => {
    const leverage: Record<string, string> = side.endsWith('OPEN') ? { leverage: '10' } : {};
    const answer = await call<{ orderId: string }>(user, 'POST', '/openapi/contract/v1/order', {
      symbol: 'BTC-SWAP-USDT',
      side,
      quantity,
      price,
      clientOrderId,
      ...leverage,
    });
    expect(answer.status).toBe(200);
    return answer.body.orderId;
  };
  const contractsUsdt = (client: StreamClient) =>
    (client.of('outboundContractAccountInfo').at(-1)?.B as unknown[] | undefined)?.[0];

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { REDIS_URL: '' } });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    carol = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    dave = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await replica?.close();
    await exchange.close();
  });

  it('streams the transfer in, a resting short, the long that takes it in part, the cancel of the rest and a close order, each in E order', async () => {
    const [carolStream, daveStream] = [await connect(carol), await connect(dave)];
    for (const user of [carol, dave]) {
      expect(
        (
          await call(user, 'POST', '/openapi/v1/transfer', {
            fromAccountType: 1,
            toAccountType: 3,
            tokenId: 'USDT',
            amount: '10000',
          })
        ).body,
      ).toEqual({ success: 'true' });
    }
    await carolStream.waitForFrames('the transfer on both sides', (f) =>
      f.some((x) => x.e === 'outboundContractAccountInfo'),
    );
    expect(carolStream.frames.map((f) => f.e)).toEqual(['outboundAccountInfo', 'outboundContractAccountInfo']);
    expect(contractsUsdt(carolStream)).toEqual({ a: 'USDT', f: '10000.00000000', l: '0.00000000' });

    const shortId = await order(dave, 'SELL_OPEN', '10', '30000', 'dave-short');
    // A replica started after the short was placed learns it from the ledger's tables when dave's socket opens there.
    replica = await createApp(exchange.infrastructure, [UserStreamModule]);
    await replica.listen(0, '127.0.0.1');
    const daveOnReplica = await connect(dave, (await replica.getUrl()).replace('[::1]', '127.0.0.1'));
    const longId = await order(carol, 'BUY_OPEN', '4', '30000', 'carol-long');
    await carolStream.waitForFrames(
      "carol's fill and its USDT",
      (f) =>
        f.some((x) => x.i === longId && x.X === 'FILLED') &&
        contractsUsdt(carolStream) !== undefined &&
        f.at(-1)?.e === 'outboundContractAccountInfo',
    );
    await daveStream.waitForFrames(
      "dave's partial fill and its USDT",
      (f) =>
        f.some((x) => x.i === shortId && x.X === 'PARTIALLY_FILLED') && f.at(-1)?.e === 'outboundContractAccountInfo',
    );

    const carolReports = carolStream.of('contractExecutionReport');
    for (const r of carolReports) expect(Object.keys(r).sort()).toEqual(reportKeys);
    expect(
      carolReports.map((r) => [r.X, r.c, r.S, r.C, r.v, r.q, r.p, r.l, r.L, r.z, r.Z, r.n, r.N, r.m, r.f, r.o, r.w]),
    ).toEqual([
      [
        'NEW',
        'carol-long',
        'BUY',
        false,
        '10',
        '4',
        '30000',
        '0',
        '0',
        '0',
        '0',
        '0',
        'USDT',
        false,
        'GTC',
        'LIMIT',
        true,
      ],
      [
        'FILLED',
        'carol-long',
        'BUY',
        false,
        '10',
        '4',
        '30000',
        '4',
        '30000',
        '4',
        '120000',
        '0.072',
        'USDT',
        false,
        'GTC',
        'LIMIT',
        true,
      ],
    ]);
    const carolLong = carolStream.of('outboundContractPositionInfo');
    expect(carolLong).toHaveLength(1);
    expect(Object.keys(carolLong[0]!).sort()).toEqual(positionKeys);
    expect(carolLong[0]).toMatchObject({
      A: carol.accounts.find((a) => a.accountType === 3 && a.accountIndex === 0)!.accountId,
      s: 'BTC-SWAP-USDT',
      S: 'LONG',
      p: '30000',
      P: '4',
      a: '4',
      m: '12',
      r: '0',
      f: expect.stringMatching(/^\d+(\.\d+)?$/),
    });
    // Free 10000 − 12 margin − 0.072 fee; not free: the position's margin.
    expect(contractsUsdt(carolStream)).toEqual({ a: 'USDT', f: '9987.92800000', l: '12.00000000' });
    expectEventTimeOrder(carolStream.frames.filter((f) => f.e !== 'outboundAccountInfo'));

    expect(
      daveStream
        .of('contractExecutionReport')
        .filter((r) => r.i === shortId)
        .map((r) => [r.X, r.S, r.l, r.z, r.Z, r.n, r.m]),
    ).toEqual([
      ['NEW', 'SELL', '0', '0', '0', '0', false],
      ['PARTIALLY_FILLED', 'SELL', '4', '4', '120000', '0.024', true],
    ]);
    expect(daveStream.of('outboundContractPositionInfo').at(-1)).toMatchObject({ S: 'SHORT', P: '4', m: '12' });
    // Free 10000 − the lock 30.36 + its filled share 12.144 − margin 12 − fee 0.024; not free: 18.216 still locked and 12 of margin.
    expect(contractsUsdt(daveStream)).toEqual({ a: 'USDT', f: '9969.76000000', l: '30.21600000' });
    await daveOnReplica.waitForFrames("dave's partial fill on the later replica", (f) =>
      f.some((x) => x.i === shortId && x.X === 'PARTIALLY_FILLED'),
    );
    const withoutE = (frames: Frame[]) => frames.map(({ E: _E, ...rest }) => rest);
    expect(withoutE(daveOnReplica.of('contractExecutionReport'))).toEqual(
      withoutE(daveStream.of('contractExecutionReport').slice(1)),
    );

    expect(
      (await call(dave, 'DELETE', '/openapi/contract/v1/order/cancel', { clientOrderId: 'dave-short' })).body,
    ).toMatchObject({ status: 'CANCELED' });
    await daveStream.waitForFrames(
      'the cancel and the released lock',
      (f) => f.some((x) => x.i === shortId && x.X === 'CANCELED') && f.at(-1)?.e === 'outboundContractAccountInfo',
    );
    expect(daveStream.of('contractExecutionReport').at(-1)).toMatchObject({
      X: 'CANCELED',
      c: 'dave-short',
      z: '4',
      Z: '120000',
      l: '0',
      q: '10',
    });
    expect(contractsUsdt(daveStream)).toEqual({ a: 'USDT', f: '9987.97600000', l: '12.00000000' });

    const closeId = await order(carol, 'SELL_CLOSE', '4', '31000', 'carol-close');
    await carolStream.waitForFrames(
      'the close order and the position it claims',
      (f) => f.some((x) => x.i === closeId) && f.at(-1)?.e === 'outboundContractPositionInfo',
    );
    expect(carolStream.of('contractExecutionReport').at(-1)).toMatchObject({
      X: 'NEW',
      c: 'carol-close',
      S: 'SELL',
      C: true,
      v: '10',
      q: '4',
      p: '31000',
    });
    expect(carolStream.of('outboundContractPositionInfo').at(-1)).toMatchObject({ S: 'LONG', P: '4', a: '0' });
    expectEventTimeOrder(daveStream.frames.filter((f) => f.e !== 'outboundAccountInfo'));
    expectEventTimeOrder(carolStream.frames.filter((f) => f.e !== 'outboundAccountInfo'));
  });
});
