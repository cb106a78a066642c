import 'reflect-metadata';
import { HeaderNames, Topics } from '@exchange/contracts';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

type Json = Record<string, unknown>;

/**
 * A request's X-Request-Id on every record it causes, as the gateway hands it on from the
 * request itself (no async context): concurrent requests must each keep their own.
 */
describe('X-Request-Id on the records a request causes', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let trader: TestUser;
  let token: string;
  const call = (method: string, path: string, requestId: string, query: Record<string, string | number> = {}) =>
    signedRequest<Json>(exchange.baseUrl, method, path, trader.key, {
      timestamp: clock.now(),
      query,
      headers: { 'X-Request-Id': requestId },
    });

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: { RATE_LIMIT_ORDERS_PER_SECOND: '1000' },
    });
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    trader = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
  });
  afterAll(async () => exchange.close());

  /** `<topic> <type>` of every pipeline record, by correlation id, with the order id its payload names. */
  async function traced(): Promise<Map<string, { what: string; orderId?: string }[]>> {
    const byId = new Map<string, { what: string; orderId?: string }[]>();
    const log = exchange.infrastructure.eventLog;
    for (const topic of [Topics.ledgerCommands, Topics.orderCommands, Topics.orderEvents, Topics.ledgerEvents]) {
      for (let p = 0; p < (await log.partitionCount(topic.name)); p++)
        await log.read(topic.name, p, 0, async (records) => {
          for (const r of records) {
            const id = r.headers[HeaderNames.correlationId];
            if (id === undefined) continue;
            const message = JSON.parse(r.value) as { type: string; payload: { orderId?: string } };
            const list = byId.get(id) ?? [];
            list.push({ what: `${topic.name} ${message.type}`, orderId: message.payload.orderId });
            byId.set(id, list);
          }
        });
    }
    return byId;
  }

  it('keeps each of 20 concurrent orders its own id, from the command to the ledger event of its outcome', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `concurrent-${Date.now()}-${i}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        call('POST', '/openapi/v1/order', id, {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: String(1000 + i),
          quantity: '0.01',
        }),
      ),
    );
    const records = await traced();
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBe(ids[i]);
      const own = records.get(ids[i]!) ?? [];
      expect(own.map((r) => r.what)).toEqual(
        expect.arrayContaining([
          'ledger.commands PlaceOrder',
          'order.commands SubmitOrder',
          'order.events OrderAccepted',
          'order.events OrderRested',
          'ledger.events OrderPlaced',
        ]),
      );
      const orderIds = new Set(own.flatMap((r) => (r.orderId === undefined ? [] : [r.orderId])));
      expect([...orderIds]).toEqual([answer.body.orderId]);
    });
  });

  it('puts the id of a cancel, a transfer and an operator call on their commands and outcomes', async () => {
    const stamp = Date.now();
    const placed = await call('POST', '/openapi/v1/order', `place-${stamp}`, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '900',
      quantity: '0.01',
    });
    const canceled = await call('DELETE', '/openapi/v1/order', `cancel-${stamp}`, {
      orderId: String(placed.body.orderId),
    });
    expect(canceled.body).toMatchObject({ status: 'CANCELED' });
    expect(
      (
        await call('POST', '/openapi/v1/transfer', `transfer-${stamp}`, {
          tokenId: 'USDT',
          amount: '5',
          toAccountType: 3,
        })
      ).body,
    ).toEqual({ success: 'true' });
    const created = await http(exchange.baseUrl, 'POST', '/admin/v1/users', {
      body: JSON.stringify({ name: 'traced' }),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-request-id': `admin-${stamp}`,
      },
    });
    expect(created.status).toBe(200);

    const records = await traced();
    const of = (id: string) => (records.get(id) ?? []).map((r) => r.what);
    expect(of(`cancel-${stamp}`)).toEqual(
      expect.arrayContaining(['ledger.commands RequestCancel', 'order.events OrderCanceled']),
    );
    expect(of(`transfer-${stamp}`)).toEqual(
      expect.arrayContaining(['ledger.commands TransferFunds', 'ledger.events FundsTransferred']),
    );
    expect(of(`admin-${stamp}`)).toEqual(
      expect.arrayContaining(['ledger.commands CreateUser', 'ledger.events UserCreated']),
    );
  });
});
