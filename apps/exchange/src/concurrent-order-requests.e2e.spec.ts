import 'reflect-metadata';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;

/**
 * Requests about one order at the same time (issue 13, finding 4): each waits for the outcome of
 * its own command, so none is left without an answer (504 -1007) because another took its place.
 */
describe('concurrent requests about one order', () => {
  let exchange: TestExchange;
  let maker: TestUser;
  const call = <T = Json>(method: string, path: string, query: Record<string, string | number> = {}) =>
    signedRequest<T>(exchange.baseUrl, method, path, maker.key, { query });

  beforeAll(async () => {
    exchange = await startTestExchange();
    maker = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, { ETH: '10' });
  });
  afterAll(async () => exchange.close());

  it('answers exactly one of 20 parallel cancels with 200, and every other at once with -2011 or -1142', async () => {
    const placed = await call<{ orderId: string; status: string }>('POST', '/openapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'SELL',
      type: 'LIMIT',
      price: '9000',
      quantity: '1',
    });
    expect(placed.body.status).toBe('NEW');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call<Json>('DELETE', '/openapi/v1/order', { orderId: placed.body.orderId })),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body).toMatchObject({ orderId: placed.body.orderId, status: 'CANCELED' });
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(400);
      expect([-2011, -1142]).toContain(refused.body.code);
    }
    expect((await call('GET', '/openapi/v1/order', { orderId: placed.body.orderId })).body).toMatchObject({
      status: 'CANCELED',
    });
  });

  it('answers a placement with 200 when a cancel by its client id follows as soon as the order exists', async () => {
    const placing = call<Json>('POST', '/openapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'SELL',
      type: 'LIMIT',
      price: '9100',
      quantity: '1',
      newClientOrderId: 'race-1',
    });
    let cancel: Promise<{ status: number; body: Json }> | undefined;
    await waitFor(
      async () => {
        const found = await call('GET', '/openapi/v1/order', { origClientOrderId: 'race-1' });
        if (found.status === 200) cancel = call<Json>('DELETE', '/openapi/v1/order', { origClientOrderId: 'race-1' });
        return found.status === 200;
      },
      'the order to exist',
      20_000,
      1,
    );
    const [placement, canceled] = await Promise.all([placing, cancel!]);
    expect(placement.status).toBe(200);
    expect(placement.body).toMatchObject({ clientOrderId: 'race-1', symbol: 'ETHUSDT' });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ clientOrderId: 'race-1', status: 'CANCELED' });
  });
});
