import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';

/** STOP contract orders (CONTRACTS.md, Orders): off the book with their margin locked until the last price crosses the trigger. */
describe('STOP contract orders', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let n = 0;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const order = (user: TestUser, side: string, quantity: string, price: string, more: Record<string, string> = {}) =>
    call(user, 'POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side,
      quantity,
      price,
      clientOrderId: `stop-${++n}`,
      ...(side.endsWith('OPEN') ? { leverage: '10' } : {}),
      ...more,
    });
  const account = async (user: TestUser) =>
    (await call<{ USDT: Json }>(user, 'GET', '/openapi/contract/v1/account')).body.USDT;
  const open = async (user: TestUser, orderType: string) =>
    (await call<Json[]>(user, 'GET', '/openapi/contract/v1/openOrders', { orderType })).body;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const funded = () => createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    [alice, bob, carol] = [await funded(), await funded(), await funded()];
    for (const user of [alice, bob, carol]) {
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
  });
  afterAll(async () => exchange.close());

  it('locks margin at submission, is listed with orderType=STOP and cancelled without reaching the book', async () => {
    const placed = await order(alice, 'BUY_OPEN', '10', '30000', { orderType: 'STOP', triggerPrice: '31000' });
    // Margin 300 / 10 = 30 plus the taker fee 0.18 to open and to close, from submission.
    expect(placed.body).toMatchObject({ status: 'NEW', orderType: 'STOP', marginLocked: '30.36' });
    expect(await account(alice)).toMatchObject({ availableMargin: '9969.64', orderMargin: '30.36' });
    expect(await open(alice, 'STOP')).toEqual([
      expect.objectContaining({ orderId: placed.body.orderId, orderType: 'STOP' }),
    ]);
    expect(await open(alice, 'LIMIT')).toEqual([]);
    expect(
      (
        await call(alice, 'DELETE', '/openapi/contract/v1/order/cancel', {
          orderId: String(placed.body.orderId),
          orderType: 'STOP',
        })
      ).body,
    ).toMatchObject({ status: 'CANCELED' });
    expect(await account(alice)).toMatchObject({ availableMargin: '10000', orderMargin: '0' });
  });

  it('enters the book as the LIMIT order it describes once a trade crosses the trigger', async () => {
    const placed = await order(alice, 'BUY_OPEN', '5', '30500', { orderType: 'STOP', triggerPrice: '30200' });
    expect(placed.body).toMatchObject({ status: 'NEW', orderType: 'STOP' });
    // Bob and Carol trade at 30200: the last price reaches the trigger.
    expect((await order(bob, 'SELL_OPEN', '5', '30200')).body).toMatchObject({ status: 'NEW' });
    expect((await order(carol, 'BUY_OPEN', '1', '30200')).body).toMatchObject({ status: 'FILLED' });
    // Released, Alice's BUY at 30500 takes Bob's remaining 4 at 30200 and rests 1.
    await waitFor(async () => (await open(alice, 'STOP')).length === 0, 'the stop to be triggered', 10_000, 50);
    await waitFor(
      async () =>
        (await call<Json[]>(alice, 'GET', '/openapi/contract/v1/positions', { symbol: SWAP })).body.some(
          (p) => p.side === 'LONG' && p.position === '4',
        ),
      'the released order to fill',
      10_000,
      50,
    );
    expect(await open(alice, 'LIMIT')).toEqual([
      expect.objectContaining({
        orderId: placed.body.orderId,
        orderType: 'LIMIT',
        executedQty: '4',
        status: 'PARTIALLY_FILLED',
      }),
    ]);
  });
});
