import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;

describe('spot trading through REST', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let maker: TestUser;
  let taker: TestUser;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const free = async (user: TestUser, asset: string): Promise<string> =>
    (
      await call<{ balances: { asset: string; free: string; locked: string }[] }>(user, 'GET', '/openapi/v1/account')
    ).body.balances.find((b) => b.asset === asset)!.free;

  beforeAll(async () => {
    // The ORDERS limiter is raised: the 50-concurrent test is about client ids, not about -1015.
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: { RATE_LIMIT_ORDERS_PER_SECOND: '1000' },
    });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    maker = await createFundedUser(exchange.baseUrl, token, { BTC: '2' });
    taker = await createFundedUser(exchange.baseUrl, token, { USDT: '200000' });
  });
  afterAll(async () => exchange.close());

  it('rests a LIMIT SELL (NEW), fills a crossing LIMIT BUY (FILLED, fills with fees), and settles both accounts', async () => {
    const sell = await call(maker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      price: '60000',
      quantity: '1',
      newClientOrderId: 'm-1',
    });
    expect(sell.status).toBe(200);
    expect(sell.body).toMatchObject({
      symbol: 'BTCUSDT',
      clientOrderId: 'm-1',
      status: 'NEW',
      executedQty: '0',
      origQty: '1',
      price: '60000',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
    });
    const buy = await call(taker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '61000',
      quantity: '0.4',
      newOrderRespType: 'FULL',
    });
    expect(buy.body).toMatchObject({ status: 'FILLED', executedQty: '0.4', cummulativeQuoteQty: '24000' });
    expect((buy.body as { fills: unknown[] }).fills).toEqual([
      { price: '60000', qty: '0.4', commission: '0.0004', commissionAsset: 'BTC', tradeId: expect.any(String) },
    ]);
    expect(await free(taker, 'BTC')).toBe('0.39960000');
    expect(await free(taker, 'USDT')).toBe('176000.00000000');
    // The counterparty is settled in its own ledger partition: its reads converge, they are not the caller's own writes.
    await waitFor(async () => (await free(maker, 'USDT')) === '23976.00000000', "the maker's settlement", 30_000);
    const makerOrder = await call(maker, 'GET', '/openapi/v1/order', { origClientOrderId: 'm-1' });
    expect(makerOrder.body).toMatchObject({
      status: 'PARTIALLY_FILLED',
      executedQty: '0.4',
      avgPrice: '60000',
      isWorking: true,
      exchangeId: '301',
      stopPrice: '0',
      icebergQty: '0',
    });
  });

  it('lists open orders, cancels by client id (releasing the rest), and moves it to history', async () => {
    const open = await call<Json[]>(maker, 'GET', '/openapi/v1/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body.map((o) => o.clientOrderId)).toEqual(['m-1']);
    const canceled = await call(maker, 'DELETE', '/openapi/v1/order', { origClientOrderId: 'm-1' });
    expect(canceled.body).toMatchObject({
      exchangeId: '301',
      symbol: 'BTCUSDT',
      clientOrderId: 'm-1',
      status: 'CANCELED',
    });
    expect(await free(maker, 'BTC')).toBe('1.60000000');
    expect((await call<Json[]>(maker, 'GET', '/openapi/v1/openOrders')).body).toEqual([]);
    expect((await call<Json[]>(maker, 'GET', '/openapi/v1/historyOrders')).body.map((o) => o.status)).toEqual([
      'CANCELED',
    ]);
    expect((await call(maker, 'DELETE', '/openapi/v1/order', { origClientOrderId: 'm-1' })).body).toMatchObject({
      code: -1142,
    });
  });

  it('answers myTrades with the trade on both sides', async () => {
    const mine = await call<Json[]>(taker, 'GET', '/openapi/v1/myTrades', { symbol: 'BTCUSDT' });
    expect(mine.body).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        price: '60000',
        qty: '0.4',
        isBuyer: true,
        isMaker: false,
        commission: '0.0004',
        commissionAsset: 'BTC',
      }),
    ]);
  });

  it.each([
    ['an unknown symbol', { symbol: 'DOGEUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' }, -1121],
    ['a bad side', { symbol: 'BTCUSDT', side: 'UP', type: 'LIMIT', price: '1', quantity: '1' }, -1117],
    ['a bad type', { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP', price: '1', quantity: '1' }, -1116],
    [
      'a bad timeInForce',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'DAY', price: '1', quantity: '1' },
      -1115,
    ],
    ['a LIMIT without price', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }, -1102],
    ['a price off the tick', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100.001', quantity: '1' }, -1134],
    [
      'a quantity off the step',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.000011' },
      -1137,
    ],
    [
      'a quantity below minQty',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100000', quantity: '0.000001' },
      -1136,
    ],
    ['a notional below minimum', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' }, -1140],
    [
      'both quantity and quoteOrderQty on a MARKET BUY',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '10', quoteOrderQty: '10' },
      -1128,
    ],
    ['too little balance', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100000', quantity: '100' }, -1131],
  ])('refuses %s and creates nothing', async (_what, query, code) => {
    const before = (await call<Json[]>(taker, 'GET', '/openapi/v1/historyOrders')).body.length;
    const answer = await call(taker, 'POST', '/openapi/v1/order', query);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code });
    expect((await call<Json[]>(taker, 'GET', '/openapi/v1/openOrders')).body).toEqual([]);
    expect((await call<Json[]>(taker, 'GET', '/openapi/v1/historyOrders')).body.length).toBe(before);
  });

  it('rejects a LIMIT_MAKER that would take with -2010 naming the order, and keeps it queryable as REJECTED', async () => {
    await call(maker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      price: '62000',
      quantity: '0.1',
    });
    const answer = await call(taker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT_MAKER',
      price: '62000',
      quantity: '0.1',
      newClientOrderId: 'lm-1',
    });
    expect(answer.body).toMatchObject({ code: -2010, msg: expect.stringMatching(/Order \d+ would immediately match/) });
    expect((await call(taker, 'GET', '/openapi/v1/order', { origClientOrderId: 'lm-1' })).body).toMatchObject({
      status: 'REJECTED',
    });
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '1000',
          quantity: '0.1',
          newClientOrderId: 'lm-1',
        })
      ).body,
    ).toMatchObject({ code: -1141 });
  });

  it('buys at MARKET by quote amount, rounding down to the step and releasing the rest', async () => {
    const answer = await call(taker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '1000',
    });
    expect(answer.body).toMatchObject({ status: 'FILLED', executedQty: '0.01612', cummulativeQuoteQty: '999.44' });
  });

  it('validates without creating anything on order/test', async () => {
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order/test', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '100',
          quantity: '1',
        })
      ).body,
    ).toEqual({});
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order/test', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '100.001',
          quantity: '1',
        })
      ).body,
    ).toMatchObject({ code: -1134 });
  });

  it('refuses new orders on a HALTed symbol with -1151 while cancels go on, and trades again once TRADING', async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const resting = await call(maker, 'POST', '/openapi/v1/order', {
      symbol: 'ETHBTC',
      side: 'BUY',
      type: 'LIMIT',
      price: '0.05',
      quantity: '1',
      newClientOrderId: 'h-1',
    });
    expect(resting.body).toMatchObject({ status: 'NEW' });
    const halted = await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/symbols/ETHBTC/status', {
      status: 'HALT',
    });
    expect(halted.body).toMatchObject({ symbol: 'ETHBTC', status: 'HALT' });
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order', {
          symbol: 'ETHBTC',
          side: 'BUY',
          type: 'LIMIT',
          price: '0.01',
          quantity: '1',
        })
      ).body,
    ).toMatchObject({ code: -1151 });
    expect((await call(maker, 'DELETE', '/openapi/v1/order', { origClientOrderId: 'h-1' })).body).toMatchObject({
      status: 'CANCELED',
    });
    await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/symbols/ETHBTC/status', { status: 'TRADING' });
    expect(
      (
        await call(maker, 'POST', '/openapi/v1/order', {
          symbol: 'ETHBTC',
          side: 'BUY',
          type: 'LIMIT',
          price: '0.05',
          quantity: '1',
        })
      ).body,
    ).toMatchObject({ status: 'NEW' });
    expect(
      (await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/symbols/ETHBTC/status', { status: 'CLOSED' })).body,
    ).toMatchObject({ code: -1130 });
  });

  it('makes one order of 50 concurrent identical POSTs with one client id', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(taker, 'POST', '/openapi/v1/order', {
          symbol: 'ETHUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '1000',
          quantity: '0.01',
          newClientOrderId: 'same-1',
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => (a.body as { code?: number }).code === -1141)).toHaveLength(49);
  });
});
