import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { StreamClient } from '../../../test/support/stream-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';
const INTERVAL = 60_000;

/**
 * Funding and liquidation end to end (CONTRACTS.md, Prices, funding, liquidation): market data
 * fixes each interval's rate from the operator's index, the price relay hands it to every ledger
 * partition, and the ledger pays between positions' margins; a fall of the index liquidates the long.
 */
describe('funding and liquidation through the price relay', () => {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL) * INTERVAL + 1000);
  let exchange: TestExchange;
  let token: string;
  let alice: TestUser;
  let bob: TestUser;
  let n = 0;
  const call = <T = Json>(user: TestUser, method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
  const order = (user: TestUser, side: string, quantity: string, price: string) =>
    call(user, 'POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side,
      quantity,
      price,
      clientOrderId: `fl-${++n}`,
      leverage: '10',
    });
  const position = async (user: TestUser, side: string) =>
    (await call<Json[]>(user, 'GET', '/openapi/contract/v1/positions', { symbol: SWAP })).body.find(
      (p) => p.side === side,
    );
  const total = async (user: TestUser) =>
    (await call<{ USDT: Json }>(user, 'GET', '/openapi/contract/v1/account')).body.USDT.total as string;
  const feed = (price: string) =>
    adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/index-prices', { index: 'BTCIDX', price });

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      env: { MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX'), CONTRACT_FUNDING_INTERVAL_MS: String(INTERVAL) },
    });
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    bob = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
    for (const user of [alice, bob])
      expect(
        (
          await call(user, 'POST', '/openapi/v1/transfer', {
            fromAccountType: 1,
            toAccountType: 3,
            tokenId: 'USDT',
            amount: '1000',
          })
        ).body,
      ).toEqual({ success: 'true' });
    await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/insurance-fund', { amount: '80000' });
  });
  let stream: StreamClient | undefined;
  afterAll(async () => {
    stream?.close();
    await exchange.close();
  });

  it('pays funding at each interval end, long to short, to the unit, the sum unchanged', async () => {
    // Alice LONG 10 and Bob SHORT 10 at 30000, 10×: margin 30 each, fees 0.06 (Bob maker) and 0.18 (Alice taker).
    expect((await order(bob, 'SELL_OPEN', '10', '30000')).body).toMatchObject({ status: 'NEW' });
    expect((await order(alice, 'BUY_OPEN', '10', '30000')).body).toMatchObject({ status: 'FILLED' });
    const [aliceStart, bobStart] = [await total(alice), await total(bob)];
    expect([aliceStart, bobStart]).toEqual(['999.82', '999.94']);
    await feed('30000');
    for (let interval = 1; interval <= 3; interval++) {
      clock.advance(INTERVAL);
      await feed('30000');
      // An empty contract book: mark = index, premium 0, rate 0.01%: 10 × 0.001 × 30000 × 0.0001 = 0.03 a interval.
      const margin = (30 - 0.03 * interval).toFixed(2).replace(/\.?0+$/, '');
      await waitFor(
        async () => (await position(alice, 'LONG'))?.margin === margin,
        `funding ${interval} paid by Alice`,
        15_000,
        50,
      );
      await waitFor(
        async () => (await position(bob, 'SHORT'))?.margin === (30 + 0.03 * interval).toFixed(2).replace(/\.?0+$/, ''),
        `funding ${interval} to Bob`,
        15_000,
        50,
      );
    }
    expect(await total(alice)).toBe('999.73');
    expect(await total(bob)).toBe('1000.03');
    // Market data's board follows its own state topic: wait until it shows the third fix.
    const fixes = async () =>
      (await fetch(`${exchange.baseUrl}/openapi/contract/v1/fundingRate?symbol=${SWAP}&state=past`).then((r) =>
        r.json(),
      )) as Json[];
    let past: Json[] = [];
    await waitFor(
      async () => (past = await fixes()).length === 1 && Number(past[0]!.intervalEnd) > clock.now() - INTERVAL,
      'the last fix on the board',
      15_000,
      50,
    );
    expect(past).toEqual([expect.objectContaining({ symbol: SWAP, rate: '0.0001' })]);
    expect(Number(past[0]!.intervalEnd) - Number(past[0]!.intervalStart)).toBe(INTERVAL);
    const current = (await fetch(`${exchange.baseUrl}/openapi/contract/v1/fundingRate?symbol=${SWAP}`).then((r) =>
      r.json(),
    )) as Json[];
    expect(current).toEqual([expect.objectContaining({ symbol: SWAP, intervalStart: past[0]!.intervalEnd })]);
  });

  it('liquidates the long when the index falls through its flp: Alice loses exactly her margin, the fund takes the position', async () => {
    // A close order of hers rests on the book: the liquidation has the engine cancel it first, and her
    // stream (a real client) says so: CANCELED, and u ("the trade is normal") false.
    const listenKey = (await call<{ listenKey: string }>(alice, 'POST', '/openapi/v1/userDataStream')).body.listenKey;
    stream = await StreamClient.connect(exchange.baseUrl, listenKey);
    const close = await call<{ orderId: string; status: string }>(alice, 'POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side: 'SELL_CLOSE',
      quantity: '4',
      price: '35000',
      clientOrderId: `fl-${++n}`,
    });
    expect(close.body.status).toBe('NEW');
    const reports = () => stream!.of('contractExecutionReport').filter((f) => f.i === close.body.orderId);
    await stream.waitForFrames('the close order reported', () => reports().length > 0);
    expect(reports()[0]).toMatchObject({ X: 'NEW', u: true, C: true });
    const long = await position(alice, 'LONG');
    const before = Number(await total(alice));
    const flp = Number(long!.flp);
    expect(flp).toBeGreaterThan(27000);
    clock.advance(1000);
    await feed(String(Math.floor(flp - 100)));
    await waitFor(
      async () =>
        (await position(alice, 'LONG'))?.position === undefined || (await position(alice, 'LONG'))?.position === '0',
      'the long to be liquidated',
      15_000,
      50,
    );
    // Her margin (29.91 after three fundings) is her loss; nothing else moved, nothing is negative.
    expect(Number(await total(alice))).toBeCloseTo(before - 29.91, 8);
    const insurance = (await fetch(`${exchange.baseUrl}/openapi/contract/v1/insurance`).then((r) => r.json())) as {
      balance: string;
    };
    expect(Number(insurance.balance)).toBeGreaterThan(0);
    expect(await position(bob, 'SHORT')).toMatchObject({ position: '10' });
    await stream!.waitForFrames('the close order canceled', () => reports().some((f) => f.X === 'CANCELED'));
    expect(reports().map((f) => [f.X, f.u])).toEqual([
      ['NEW', true],
      ['CANCELED', false],
    ]);
  });
});
