import 'reflect-metadata';
import { ApiGatewayModule } from '@exchange/api-gateway';
import { LedgerModule } from '@exchange/ledger';
import { ManualClock } from '@exchange/platform';
import { WalletModule } from '@exchange/wallet';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;
type Balance = { asset: string; free: string; locked: string };

/**
 * What an order's REST answer says when it does not simply rest or fill: the IOC, FOK and MARKET
 * remainders (CANCELED in a normal 200 answer, API-DECISIONS "Orders"), self-trade prevention, and
 * the -1007 answer when the pipeline cannot say in time.
 */
describe('order outcomes through REST', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let seller: TestUser;
  let buyer: TestUser;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const balance = async (user: TestUser, asset: string): Promise<Balance> =>
    (await call<{ balances: Balance[] }>(user, 'GET', '/openapi/v1/account')).body.balances.find(
      (b) => b.asset === asset,
    )!;
  const place = (user: TestUser, query: Record<string, string>) =>
    call(user, 'POST', '/openapi/v1/order', { symbol: 'ETHUSDT', ...query });

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, onKafkaWhenAvailable: true });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    seller = await createFundedUser(exchange.baseUrl, token, { ETH: '10' });
    buyer = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
  });
  afterAll(async () => exchange.close());

  it('cancels the remainder of an IOC that fills in part, in a 200 answer, and releases what it held', async () => {
    expect((await place(seller, { side: 'SELL', type: 'LIMIT', price: '2000', quantity: '1' })).body).toMatchObject({
      status: 'NEW',
    });
    const ioc = await place(buyer, {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: '2000',
      quantity: '3',
      newClientOrderId: 'ioc-1',
    });
    expect(ioc.status).toBe(200);
    expect(ioc.body).toMatchObject({
      clientOrderId: 'ioc-1',
      status: 'CANCELED',
      timeInForce: 'IOC',
      origQty: '3',
      executedQty: '1',
      cummulativeQuoteQty: '2000',
    });
    expect(await balance(buyer, 'USDT')).toEqual({ asset: 'USDT', free: '98000.00000000', locked: '0.00000000' });
    expect((await call<Json[]>(buyer, 'GET', '/openapi/v1/openOrders')).body).toEqual([]);
    expect((await call(buyer, 'GET', '/openapi/v1/order', { origClientOrderId: 'ioc-1' })).body).toMatchObject({
      status: 'CANCELED',
      isWorking: false,
    });
  });

  it('trades nothing on a FOK that cannot fill completely, and fills one that can', async () => {
    expect(
      (await place(seller, { side: 'SELL', type: 'LIMIT', price: '2100', quantity: '1', newClientOrderId: 's-2100' }))
        .body,
    ).toMatchObject({ status: 'NEW' });
    const tooBig = await place(buyer, { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '2100', quantity: '2' });
    expect(tooBig.status).toBe(200);
    expect(tooBig.body).toMatchObject({ status: 'CANCELED', executedQty: '0', cummulativeQuoteQty: '0' });
    expect((await call(seller, 'GET', '/openapi/v1/order', { origClientOrderId: 's-2100' })).body).toMatchObject({
      status: 'NEW',
      executedQty: '0',
    });
    const fits = await place(buyer, { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '2100', quantity: '1' });
    expect(fits.body).toMatchObject({ status: 'FILLED', executedQty: '1', cummulativeQuoteQty: '2100' });
    expect(await balance(buyer, 'USDT')).toEqual({ asset: 'USDT', free: '95900.00000000', locked: '0.00000000' });
  });

  it('cancels what a MARKET SELL cannot find buyers for, after selling what it can', async () => {
    expect((await place(buyer, { side: 'BUY', type: 'LIMIT', price: '1500', quantity: '0.5' })).body).toMatchObject({
      status: 'NEW',
    });
    const market = await place(seller, { side: 'SELL', type: 'MARKET', quantity: '2', newOrderRespType: 'FULL' });
    expect(market.status).toBe(200);
    expect(market.body).toMatchObject({
      status: 'CANCELED',
      type: 'MARKET',
      executedQty: '0.5',
      cummulativeQuoteQty: '750',
    });
    expect((market.body as { fills: unknown[] }).fills).toEqual([
      { price: '1500', qty: '0.5', commission: '0.75', commissionAsset: 'USDT', tradeId: expect.any(String) },
    ]);
    // 10 ETH − 1 (IOC) − 1 (FOK) − 0.5 now; the unsold 1.5 is free again.
    expect(await balance(seller, 'ETH')).toEqual({ asset: 'ETH', free: '7.50000000', locked: '0.00000000' });
  });

  it('cancels an incoming order that would trade with its own account, and leaves the resting one alone', async () => {
    const both = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, {
      ETH: '1',
      USDT: '5000',
    });
    expect(
      (await place(both, { side: 'SELL', type: 'LIMIT', price: '2300', quantity: '1', newClientOrderId: 'own-ask' }))
        .body,
    ).toMatchObject({ status: 'NEW' });
    const selfTrade = await place(both, { side: 'BUY', type: 'LIMIT', price: '2300', quantity: '1' });
    expect(selfTrade.status).toBe(200);
    expect(selfTrade.body).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect((await call(both, 'GET', '/openapi/v1/order', { origClientOrderId: 'own-ask' })).body).toMatchObject({
      status: 'NEW',
      executedQty: '0',
      isWorking: true,
    });
    expect(await balance(both, 'USDT')).toEqual({ asset: 'USDT', free: '5000.00000000', locked: '0.00000000' });
  });
});

describe('an order whose outcome the pipeline cannot give in time', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;

  // No matching engine (the wallet only credits the deposits): the ledger reserves the funds and forwards the order, and nothing answers.
  beforeAll(async () => {
    exchange = await startTestExchange({ clock, modules: [ApiGatewayModule, LedgerModule, WalletModule] });
  });
  afterAll(async () => exchange.close());

  it('answers -1007 with 504, and the order is then found by its client id', async () => {
    const user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, {
      USDT: '1000',
    });
    const call = (method: string, path: string, query: Record<string, string>) =>
      signedRequest<Json>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
    const answer = await call('POST', '/openapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '100',
      quantity: '1',
      newClientOrderId: 'slow-1',
    });
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ code: -1007 });
    expect((await call('GET', '/openapi/v1/order', { origClientOrderId: 'slow-1' })).body).toMatchObject({
      clientOrderId: 'slow-1',
      status: 'NEW',
      origQty: '1',
    });
    expect(
      (
        await call('POST', '/openapi/v1/order', {
          symbol: 'ETHUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '100',
          quantity: '1',
          newClientOrderId: 'slow-1',
        })
      ).body,
    ).toMatchObject({ code: -1141 });
  }, 30_000);

  it('shows PENDING_CANCEL while a cancel is accepted but the engine has not applied it', async () => {
    const user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, {
      USDT: '1000',
    });
    const call = (method: string, path: string, query: Record<string, string>) =>
      signedRequest<Json>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
    await call('POST', '/openapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '100',
      quantity: '1',
      newClientOrderId: 'slow-2',
    });
    expect((await call('DELETE', '/openapi/v1/order', { origClientOrderId: 'slow-2' })).body).toMatchObject({
      code: -1007,
    });
    expect((await call('GET', '/openapi/v1/order', { origClientOrderId: 'slow-2' })).body).toMatchObject({
      status: 'PENDING_CANCEL',
    });
    expect((await call('GET', '/openapi/v1/openOrders', {})).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ clientOrderId: 'slow-2', status: 'PENDING_CANCEL' })]),
    );
    // Nothing is released until the engine says the order is off the book.
    const account = await call('GET', '/openapi/v1/account', {});
    expect(
      (account.body as { balances: { asset: string; locked: string }[] }).balances.find((b) => b.asset === 'USDT')
        ?.locked,
    ).toBe('100.00000000');
  }, 60_000);
});
