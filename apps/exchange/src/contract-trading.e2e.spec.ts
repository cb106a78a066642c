import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { checkNamed, replayContextOf } from '../../../test/support/replay-context';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { ledgerReplay } from '../../../tools/replay/ledger/ledger-rebuild';
import { matchingEngineReplay } from '../../../tools/replay/matching-engine/engine-rebuild';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';

/**
 * Perpetual contracts end to end on the embedded default (CONTRACTS.md), with the shipped
 * BTC-SWAP-USDT: 0.001 BTC a contract, maker 0.02%, taker 0.06%, 20× in the first tier. Every
 * number below is worked by hand from those.
 */
describe('contract trading through REST', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let alice: TestUser;
  let bob: TestUser;
  let n = 0;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const order = (user: TestUser, side: string, quantity: string, price: string, more: Record<string, string> = {}) =>
    call(user, 'POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side,
      quantity,
      price,
      clientOrderId: `e2e-${++n}`,
      ...(side.endsWith('OPEN') ? { leverage: '10' } : {}),
      ...more,
    });
  const account = async (user: TestUser) =>
    (await call<{ USDT: Json }>(user, 'GET', '/openapi/contract/v1/account')).body.USDT;
  const position = async (user: TestUser, side: string) =>
    (await call<Json[]>(user, 'GET', '/openapi/contract/v1/positions', { symbol: SWAP })).body.find(
      (p) => p.side === side,
    );
  const fund = async (user: TestUser, amount: string) => {
    const moved = await call(user, 'POST', '/openapi/v1/transfer', {
      fromAccountType: 1,
      toAccountType: 3,
      tokenId: 'USDT',
      amount,
    });
    expect(moved.body).toEqual({ success: 'true' });
  };

  beforeAll(async () => {
    exchange = await startTestExchange({ clock });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    bob = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    await fund(alice, '10000');
    await fund(bob, '10000');
  });
  afterAll(async () => exchange.close());

  it('opens a long and a short between two accounts, fills in part, adds, closes in part and in full with realised PnL and fees', async () => {
    expect(await account(alice)).toEqual({
      total: '10000',
      availableMargin: '10000',
      positionMargin: '0',
      orderMargin: '0',
    });
    // Bob rests a short of 10 at 30000: margin 300 / 10 = 30 plus the taker fee 0.18 to open and to close.
    expect((await order(bob, 'SELL_OPEN', '10', '30000')).body).toMatchObject({
      status: 'NEW',
      marginLocked: '30.36',
      leverage: '10',
      priceType: 'INPUT',
      timeInForce: 'GTC',
    });
    expect(await account(bob)).toEqual({
      total: '10000',
      availableMargin: '9969.64',
      positionMargin: '0',
      orderMargin: '30.36',
    });

    // Alice takes 4: margin 12, taker fee 120 × 0.06% = 0.072; Bob's order fills in part (maker fee 0.024).
    expect((await order(alice, 'BUY_OPEN', '4', '30000')).body).toMatchObject({
      status: 'FILLED',
      executedQty: '4',
      avgPrice: '30000',
      fees: [{ feeToken: 'USDT', fee: '0.072' }],
    });
    expect(await account(alice)).toEqual({
      total: '9999.928',
      availableMargin: '9987.928',
      positionMargin: '12',
      orderMargin: '0',
    });
    expect(await account(bob)).toEqual({
      total: '9999.976',
      availableMargin: '9969.76',
      positionMargin: '12',
      orderMargin: '18.216',
    });
    expect((await call<Json[]>(bob, 'GET', '/openapi/contract/v1/openOrders')).body).toEqual([
      expect.objectContaining({ status: 'PARTIALLY_FILLED', executedQty: '4', origQty: '10' }),
    ]);

    // Alice adds 16: 6 from Bob's remainder at 30000 and 10 from a new ask at 30300; average (10 × 30000 + 10 × 30300) / 20.
    expect((await order(bob, 'SELL_OPEN', '10', '30300')).body).toMatchObject({ status: 'NEW' });
    expect((await order(alice, 'BUY_OPEN', '16', '30300')).body).toMatchObject({
      status: 'FILLED',
      executedQty: '16',
      avgPrice: '30187.5',
      fees: [{ feeToken: 'USDT', fee: '0.2898' }],
    });
    expect(await position(alice, 'LONG')).toMatchObject({
      position: '20',
      available: '20',
      avgPrice: '30150',
      margin: '60.3',
      leverage: '10',
      realizedPnL: '0',
    });
    expect(await position(bob, 'SHORT')).toMatchObject({ position: '20', avgPrice: '30150', margin: '60.3' });
    // Fees so far: Alice 0.072 + 0.108 + 0.1818; Bob 0.024 + 0.036 + 0.0606.
    expect(await account(alice)).toEqual({
      total: '9999.6382',
      availableMargin: '9939.3382',
      positionMargin: '60.3',
      orderMargin: '0',
    });
    expect(await account(bob)).toEqual({
      total: '9999.8794',
      availableMargin: '9939.5794',
      positionMargin: '60.3',
      orderMargin: '0',
    });

    // A close above the available position is -2022.
    expect((await order(alice, 'SELL_CLOSE', '21', '30500')).body).toMatchObject({ code: -2022 });
    // Partial close of 5 at 30500: PnL (30500 − 30150) × 5 × 0.001 = 1.75 for Alice, −1.75 for Bob.
    const bobsClose = await order(bob, 'BUY_CLOSE', '5', '30500');
    expect(bobsClose.body).toMatchObject({ status: 'NEW', marginLocked: '0', leverage: '0' });
    expect(await position(bob, 'SHORT')).toMatchObject({ position: '20', available: '15' });
    const alicesClose = await order(alice, 'SELL_CLOSE', '5', '30500');
    expect(alicesClose.body).toMatchObject({ status: 'FILLED', fees: [{ feeToken: 'USDT', fee: '0.0915' }] });
    expect(await position(alice, 'LONG')).toMatchObject({
      position: '15',
      available: '15',
      avgPrice: '30150',
      margin: '45.225',
      realizedPnL: '1.75',
    });
    expect((await call<Json[]>(alice, 'GET', '/openapi/contract/v1/myTrades', { limit: 1 })).body).toEqual([
      expect.objectContaining({
        symbolId: SWAP,
        side: 'SELL_CLOSE',
        price: '30500',
        quantity: '5',
        fee: '0.0915',
        feeTokenId: 'USDT',
        pnl: '1.75',
        isMaker: false,
      }),
    ]);
    // Each side's matchOrderId is the other side's order.
    const [alices, bobs] = [alicesClose.body.orderId, bobsClose.body.orderId];
    expect((await call<Json[]>(alice, 'GET', '/openapi/contract/v1/myTrades', { limit: 1 })).body).toEqual([
      expect.objectContaining({ orderId: alices, matchOrderId: bobs }),
    ]);
    expect((await call<Json[]>(bob, 'GET', '/openapi/contract/v1/myTrades', { limit: 1 })).body).toEqual([
      expect.objectContaining({
        orderId: bobs,
        matchOrderId: alices,
        side: 'BUY_CLOSE',
        pnl: '-1.75',
        fee: '0.0305',
        isMaker: true,
      }),
    ]);

    // Full close of 15 at 29900: PnL (29900 − 30150) × 15 × 0.001 = −3.75 for Alice.
    expect((await order(bob, 'BUY_CLOSE', '15', '29900')).body).toMatchObject({ status: 'NEW' });
    expect((await order(alice, 'SELL_CLOSE', '15', '29900')).body).toMatchObject({
      status: 'FILLED',
      fees: [{ feeToken: 'USDT', fee: '0.2691' }],
    });
    expect((await call<Json[]>(alice, 'GET', '/openapi/contract/v1/positions')).body).toEqual([]);
    // Alice: 10000 − fees 0.7224 + PnL (1.75 − 3.75); Bob: 10000 − fees 0.2408 + PnL 2. The fees went to the fee account.
    expect(await account(alice)).toEqual({
      total: '9997.2776',
      availableMargin: '9997.2776',
      positionMargin: '0',
      orderMargin: '0',
    });
    expect(await account(bob)).toEqual({
      total: '10001.7592',
      availableMargin: '10001.7592',
      positionMargin: '0',
      orderMargin: '0',
    });
    const flows = (
      await call<{ flowType: string; change: string }[]>(alice, 'GET', '/openapi/v1/balance_flow', {
        accountType: 3,
        tokenId: 'USDT',
        limit: 100,
      })
    ).body;
    expect(
      Array.isArray(flows)
        ? flows
            .filter((f) => f.flowType === 'PNL')
            .map((f) => f.change)
            .sort()
        : flows,
    ).toEqual(['-3.75000000', '1.75000000']);
  });

  it('refuses too little margin (-1131), leverage outside the tier (-1130), and symbols of the other family (-1121 both ways)', async () => {
    expect((await order(alice, 'BUY_OPEN', '10000', '30000')).body).toMatchObject({ code: -1131 });
    expect((await order(alice, 'BUY_OPEN', '1', '30000', { leverage: '21' })).body).toMatchObject({ code: -1130 });
    expect((await order(alice, 'BUY_OPEN', '1', '30000', { leverage: '0.5' })).body).toMatchObject({ code: -1130 });
    expect(
      (
        await call(alice, 'POST', '/openapi/v1/order', {
          symbol: SWAP,
          side: 'BUY',
          type: 'LIMIT',
          price: '30000',
          quantity: '1',
        })
      ).body,
    ).toMatchObject({ code: -1121 });
    expect(
      (
        await call(alice, 'POST', '/openapi/contract/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY_OPEN',
          price: '30000',
          quantity: '1',
          leverage: '10',
          clientOrderId: 'x',
        })
      ).body,
    ).toMatchObject({ code: -1121 });
    expect((await call(alice, 'GET', '/openapi/contract/v1/positions', { symbol: 'BTCUSDT' })).body).toMatchObject({
      code: -1121,
    });
    expect((await order(alice, 'BUY_OPEN', '1', '30000', { orderType: 'STOP' })).body).toMatchObject({ code: -1102 });
  });

  it('adds and removes position margin, refusing to go below the initial margin (-1131)', async () => {
    expect((await order(bob, 'SELL_OPEN', '10', '20000', { leverage: '20' })).body).toMatchObject({ status: 'NEW' });
    expect((await order(alice, 'BUY_OPEN', '10', '20000', { leverage: '20' })).body).toMatchObject({
      status: 'FILLED',
    });
    expect(await position(alice, 'LONG')).toMatchObject({ position: '10', margin: '10' });
    const modify = (amount: string) =>
      call(alice, 'POST', '/openapi/contract/v1/modifyMargin', { symbol: SWAP, side: 'LONG', amount });
    expect((await modify('15.5')).body).toMatchObject({ symbol: SWAP, side: 'LONG', amount: '15.5', margin: '25.5' });
    expect((await modify('-5.5')).body).toMatchObject({ margin: '20' });
    // The initial margin at the last price 20000 is 200 / 20 = 10: taking 10.01 of the 20 leaves too little.
    expect((await modify('-10.01')).body).toMatchObject({ code: -1131 });
    expect((await modify('-10')).body).toMatchObject({ margin: '10' });
    expect(
      (await call(alice, 'POST', '/openapi/contract/v1/modifyMargin', { symbol: SWAP, side: 'SHORT', amount: '1' }))
        .body,
    ).toMatchObject({ code: -1130 });
  });

  it('resolves every priceType and applies FOK, IOC and LIMIT_MAKER to contract orders', async () => {
    await call(alice, 'DELETE', '/openapi/contract/v1/order/batchCancel');
    await call(bob, 'DELETE', '/openapi/contract/v1/order/batchCancel');
    expect((await order(bob, 'SELL_OPEN', '3', '21000', { leverage: '20' })).body).toMatchObject({ status: 'NEW' });
    expect((await order(bob, 'BUY_OPEN', '3', '19000', { leverage: '20' })).body).toMatchObject({ status: 'NEW' });
    // QUEUE joins the best bid; OPPONENT takes the best ask; OVER goes past it by overPrice.
    expect(
      (
        await call(alice, 'POST', '/openapi/contract/v1/order', {
          symbol: SWAP,
          side: 'BUY_OPEN',
          priceType: 'QUEUE',
          quantity: '1',
          leverage: '20',
          clientOrderId: 'q1',
        })
      ).body,
    ).toMatchObject({ status: 'NEW', price: '19000', priceType: 'QUEUE' });
    expect(
      (
        await call(alice, 'POST', '/openapi/contract/v1/order', {
          symbol: SWAP,
          side: 'BUY_OPEN',
          priceType: 'OPPONENT',
          quantity: '1',
          leverage: '20',
          clientOrderId: 'o1',
        })
      ).body,
    ).toMatchObject({ status: 'FILLED', price: '21000', avgPrice: '21000' });
    expect(
      (
        await call(alice, 'POST', '/openapi/contract/v1/order', {
          symbol: SWAP,
          side: 'BUY_OPEN',
          priceType: 'OVER',
          overPrice: '50',
          quantity: '1',
          leverage: '20',
          clientOrderId: 'v1',
        })
      ).body,
    ).toMatchObject({ status: 'FILLED', price: '21050', avgPrice: '21000' });
    // MARKET: an IOC at the last price 21000 + 5% = 22050; one contract is left on the book, so the rest expires.
    expect(
      (
        await call(alice, 'POST', '/openapi/contract/v1/order', {
          symbol: SWAP,
          side: 'BUY_OPEN',
          priceType: 'MARKET',
          quantity: '2',
          leverage: '20',
          clientOrderId: 'm1',
        })
      ).body,
    ).toMatchObject({ status: 'EXPIRED', price: '22050', timeInForce: 'IOC', executedQty: '1' });
    expect((await order(bob, 'SELL_OPEN', '2', '21500', { leverage: '20' })).body).toMatchObject({ status: 'NEW' });
    expect((await order(alice, 'BUY_OPEN', '3', '21500', { timeInForce: 'FOK', leverage: '20' })).body).toMatchObject({
      status: 'EXPIRED',
      executedQty: '0',
    });
    expect(
      (await order(alice, 'BUY_OPEN', '1', '21500', { timeInForce: 'LIMIT_MAKER', leverage: '20' })).body,
    ).toMatchObject({ code: -2010 });
    expect((await order(alice, 'BUY_OPEN', '3', '21500', { timeInForce: 'IOC', leverage: '20' })).body).toMatchObject({
      status: 'EXPIRED',
      executedQty: '2',
    });
    // The QUEUE order still rests; cancel it by client id.
    const canceled = await call(alice, 'DELETE', '/openapi/contract/v1/order/cancel', { clientOrderId: 'q1' });
    expect(canceled.body).toMatchObject({ clientOrderId: 'q1', status: 'CANCELED' });
    expect((await call(alice, 'GET', '/openapi/contract/v1/getOrder', { clientOrderId: 'q1' })).body).toMatchObject({
      status: 'CANCELED',
      executedQty: '0',
    });
    expect(
      (await call<Json[]>(alice, 'GET', '/openapi/contract/v1/historyOrders', { limit: 3 })).body.map((o) => o.status),
    ).toEqual(['EXPIRED', 'REJECTED', 'EXPIRED']);
    expect((await call(alice, 'GET', '/openapi/contract/v1/account')).body).toMatchObject({
      USDT: { orderMargin: '0' },
    });
  });

  it('replays to the live state: the ledger (contracts fold included) and the contract books rebuild with matching hashes', async () => {
    const { ctx } = replayContextOf(exchange.infrastructure);
    for (const target of [ledgerReplay, matchingEngineReplay]) {
      const result = await target.rebuild(ctx, { switch: false, force: false });
      expect({ target: target.service, failed: result.checks.filter((c) => !c.ok) }).toEqual({
        target: target.service,
        failed: [],
      });
      if (target === ledgerReplay)
        for (const name of ['state hash', 'rows of contract_trades', 'rows of contract_positions'])
          expect(checkNamed(result.checks, name).ok).toBe(true);
    }
  });

  it('shows the operator a contracts account as its own key sees it, and refuses a spot account', async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const contractsAccountId = alice.accounts.find((a) => a.accountType === 3 && a.accountIndex === 0)!.accountId;
    const seen = await adminCall<Json>(
      exchange.baseUrl,
      token,
      'GET',
      `/admin/v1/accounts/${contractsAccountId}/contracts`,
    );
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      accountId: contractsAccountId,
      account: { USDT: await account(alice) },
      positions: (await call<Json[]>(alice, 'GET', '/openapi/contract/v1/positions')).body,
    });
    const spot = await adminCall<Json>(
      exchange.baseUrl,
      token,
      'GET',
      `/admin/v1/accounts/${alice.mainAccountId}/contracts`,
    );
    expect({ status: spot.status, code: spot.body.code }).toEqual({ status: 400, code: -1130 });
  });
});
