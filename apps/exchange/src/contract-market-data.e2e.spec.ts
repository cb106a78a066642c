import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';

/**
 * Contract market data from real trading: contract orders through the gateway, the engine's
 * order.events for BTC-SWAP-USDT, market data's contract paths; the index from BTCUSDT's book,
 * the mark from the contract's mid once an event passes a second.
 */
describe('contract market data after contract trading', () => {
  const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);
  const clock = new ManualClock(t0);
  let exchange: TestExchange;
  let alice: TestUser;
  let bob: TestUser;
  let n = 0;
  const get = <T = Json>(path: string) => http<T>(exchange.baseUrl, 'GET', path);
  const call = (user: TestUser, path: string, query: Record<string, string | number>) =>
    signedRequest<Json>(exchange.baseUrl, 'POST', path, user.key, { timestamp: clock.now(), query });
  const contract = (user: TestUser, side: string, quantity: string, price: string) =>
    call(user, '/openapi/contract/v1/order', {
      symbol: SWAP,
      side,
      quantity,
      price,
      clientOrderId: `md-${++n}`,
      leverage: '10',
    });
  const summary = async () => (await get<Json[]>('/openapi/v1/contracts')).body.find((c) => c.symbol === SWAP)!;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000' } });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    bob = await createFundedUser(exchange.baseUrl, token, { USDT: '100000', BTC: '1' });
    for (const user of [alice, bob]) {
      expect(
        (
          await call(user, '/openapi/v1/transfer', {
            fromAccountType: 1,
            toAccountType: 3,
            tokenId: 'USDT',
            amount: '10000',
          })
        ).body,
      ).toEqual({ success: 'true' });
    }
    // The index: BTCUSDT's mid, (29990 + 30010) / 2.
    expect(
      (
        await call(bob, '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'SELL',
          type: 'LIMIT',
          price: '30010',
          quantity: '0.01',
        })
      ).body,
    ).toMatchObject({ status: 'NEW' });
    expect(
      (
        await call(alice, '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '29990',
          quantity: '0.01',
        })
      ).body,
    ).toMatchObject({ status: 'NEW' });
    // The contract: 4 traded at 30040, 6 left on the ask, 3 bid at 30020 (mid 30030).
    expect((await contract(bob, 'SELL_OPEN', '10', '30040')).body).toMatchObject({ status: 'NEW' });
    expect((await contract(alice, 'BUY_OPEN', '4', '30040')).body).toMatchObject({ status: 'FILLED' });
    expect((await contract(alice, 'BUY_OPEN', '3', '30020')).body).toMatchObject({ status: 'NEW' });
  }, 120_000);
  afterAll(async () => exchange?.close());

  it('serves the contract book, trades, klines and summary the engine decided', async () => {
    await waitFor(
      async () => (await get<unknown[]>(`/openapi/quote/v1/contract/trades?symbol=${SWAP}`)).body.length === 1,
      'the contract trade in market data',
      30_000,
    );
    expect((await get(`/openapi/quote/v1/contract/trades?symbol=${SWAP}`)).body).toEqual([
      { price: '30040.0', qty: '4', time: t0, isBuyerMaker: false },
    ]);
    await waitFor(
      async () =>
        JSON.stringify((await get<Json>(`/openapi/quote/v1/contract/depth?symbol=${SWAP}`)).body.bids) ===
        '[["30020.0","3"]]',
      'the contract bid',
      30_000,
    );
    expect((await get(`/openapi/quote/v1/contract/depth?symbol=${SWAP}`)).body).toMatchObject({
      bids: [['30020.0', '3']],
      asks: [['30040.0', '6']],
    });
    // 4 contracts × 0.001 BTC × 30040 = 120.16 USDT.
    expect((await get(`/openapi/quote/v1/contract/klines?symbol=${SWAP}&interval=1h`)).body).toEqual([
      [t0, '30040.0', '30040.0', '30040.0', '30040.0', '4', t0 + 3_599_999, '120.1600', 1, '4', '120.1600'],
    ]);
    expect(await summary()).toMatchObject({
      lastPrice: '30040.0',
      baseVolume: '4',
      quoteVolume: '120.1600',
      bid: '30020.0',
      ask: '30040.0',
      high: '30040.0',
      low: '30040.0',
    });
    expect((await get(`/openapi/quote/v1/trades?symbol=${SWAP}`)).body).toMatchObject({ code: -1121 });
  });

  it('prices the index at the spot mid and the mark at the index plus the basis sampled at the next second', async () => {
    await waitFor(async () => (await summary()).indexPrice === '30000', 'the index', 20_000);
    expect((await summary()).markPrice).toBe('30000');
    // Event time moves with events: a spot order below the top at t0 + 1 s (the index does not
    // move) makes the prices sample that second, a basis of 30030 − 30000.
    clock.advance(1000);
    expect(
      (
        await call(alice, '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '29000',
          quantity: '0.01',
        })
      ).body,
    ).toMatchObject({ status: 'NEW' });
    await waitFor(async () => (await summary()).markPrice === '30030', 'the mark after a second', 30_000);
    expect((await get('/openapi/quote/v1/contract/index')).body).toEqual({
      index: { BTCUSDT: '30000' },
      markPrice: { [SWAP]: '30030' },
    });
  });
});
