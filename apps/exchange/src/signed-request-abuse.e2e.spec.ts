import 'reflect-metadata';
import { createHmac } from 'node:crypto';
import Decimal from 'decimal.js';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { freshTimestamp, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;

/**
 * Signed bytes used other than as signed (issue 13, findings 6 and 7): split anew between query
 * and body, or sent again. On CI the exchange runs on the real Redis (REDIS_URL), so the replay
 * guard is checked there end to end; locally on its in-process store.
 */
describe('signed requests an attacker re-sends', () => {
  let exchange: TestExchange;
  let alice: TestUser;
  const hmac = (text: string): string => createHmac('sha256', alice.key.secretKey).update(text).digest('hex');
  const raw = (method: string, query: string, body?: string) =>
    http<Json>(exchange.baseUrl, method, `/openapi/v1/${query}`, {
      body,
      headers: {
        'X-SERVICE-KEY': alice.key.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
    });
  const openOrders = async (): Promise<Json[]> =>
    (await signedRequest<Json[]>(exchange.baseUrl, 'GET', '/openapi/v1/openOrders', alice.key)).body;
  const free = async (asset: string): Promise<string> =>
    (
      await signedRequest<{ balances: { asset: string; free: string }[] }>(
        exchange.baseUrl,
        'GET',
        '/openapi/v1/account',
        alice.key,
      )
    ).body.balances.find((b) => b.asset === asset)!.free;

  beforeAll(async () => {
    exchange = await startTestExchange();
    alice = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, {
      BTC: '1',
      USDT: '1000',
    });
  });
  afterAll(async () => exchange.close());

  it('refuses a captured order whose bytes were split anew between query and body (price=9000 + 0&…), and places nothing', async () => {
    const signed = `symbol=BTCUSDT&side=SELL&type=LIMIT&price=90000&quantity=0.1&timestamp=${freshTimestamp()}`;
    const signature = hmac(signed);
    const cut = signed.indexOf('price=9000') + 'price=9000'.length;
    const attack = await raw('POST', `order?${signed.slice(0, cut)}`, `${signed.slice(cut)}&signature=${signature}`);
    expect(attack).toMatchObject({ status: 401, body: { code: -1022 } });
    expect(await openOrders()).toEqual([]);
    const asSigned = await raw('POST', `order?${signed}&signature=${signature}`);
    expect(asSigned).toMatchObject({ status: 200, body: { price: '90000', status: 'NEW' } });
  });

  it("takes a request split between query and body at a pair boundary, and ccxt's trailing &", async () => {
    const placed = await signedRequest<Json>(exchange.baseUrl, 'POST', '/openapi/v1/order', alice.key, {
      query: { symbol: 'BTCUSDT', side: 'SELL' },
      body: { type: 'LIMIT', price: '95000', quantity: '0.1' },
    });
    expect(placed).toMatchObject({ status: 200, body: { price: '95000', status: 'NEW' } });
    const ccxt = `symbol=BTCUSDT&side=SELL&type=LIMIT&price=96000&quantity=0.1&timestamp=${freshTimestamp()}&`;
    expect(await raw('POST', `order?${ccxt}&signature=${hmac(ccxt)}`)).toMatchObject({
      status: 200,
      body: { price: '96000' },
    });
  });

  it('executes a signed order without client id once when it is sent twice, and says the second was replayed', async () => {
    const before = (await openOrders()).length;
    const signed = `symbol=BTCUSDT&side=SELL&type=LIMIT&price=99000&quantity=0.1&timestamp=${freshTimestamp()}`;
    const signature = hmac(signed);
    expect((await raw('POST', `order?${signed}&signature=${signature}`)).status).toBe(200);
    const again = await raw('POST', `order?${signed}&signature=${signature.toUpperCase()}`);
    expect(again).toMatchObject({ status: 401, body: { code: -1022, msg: expect.stringContaining('replayed') } });
    expect(await openOrders()).toHaveLength(before + 1);
  });

  it('moves a replayed transfer once, also when both copies arrive at the same time, and lets reads repeat', async () => {
    const usdt = await free('USDT');
    const body = `tokenId=USDT&amount=10&toAccountType=3&timestamp=${freshTimestamp()}`;
    const signature = hmac(body);
    const answers = await Promise.all([1, 2, 3].map(() => raw('POST', 'transfer', `${body}&signature=${signature}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === -1022)).toHaveLength(2);
    expect(await free('USDT')).toBe(new Decimal(usdt).minus(10).toFixed(8));
    const read = `timestamp=${freshTimestamp()}`;
    for (let i = 0; i < 2; i++) expect((await raw('GET', `account?${read}&signature=${hmac(read)}`)).status).toBe(200);
  });
});
