import 'reflect-metadata';
import { errorBodySchema, ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

// Waits on a shared machine and a real broker can pass Jest's default 5 s; each wait has its own deadline.
jest.setTimeout(60_000);

const PATH = '/openapi/v1/userDataStream';
const MINUTE = 60_000;

describe('listenKeys: POST, PUT and DELETE /openapi/v1/userDataStream', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let alice: TestUser;
  let bob: TestUser;

  const call = (user: TestUser, method: string, query: Record<string, string> = {}) =>
    signedRequest<{ listenKey?: string; code?: number; msg?: string }>(exchange.baseUrl, method, PATH, user.key, {
      timestamp: clock.now(),
      query,
    });
  const open = async (user: TestUser): Promise<string> => {
    const answer = await call(user, 'POST');
    expect(answer.status).toBe(200);
    return answer.body.listenKey!;
  };

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, onKafkaWhenAvailable: true });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token);
    bob = await createFundedUser(exchange.baseUrl, token, {}, ['read']);
  });
  afterAll(async () => exchange.close());

  it('opens a 60-character listenKey and returns the same live key to the same API key', async () => {
    const answer = await call(alice, 'POST');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ listenKey: expect.stringMatching(/^[A-Za-z0-9]{60}$/) });
    expect(await open(alice)).toBe(answer.body.listenKey);
    expect(await open(bob)).not.toBe(answer.body.listenKey);
  });

  it('gives each API key of an account its own listenKey', async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const second = await adminCall<{ apiKey: string; secretKey: string }>(
      exchange.baseUrl,
      token,
      'POST',
      '/admin/v1/api-keys',
      { accountId: alice.mainAccountId, permissions: ['read'] },
    );
    const other = { ...alice, key: { apiKey: second.body.apiKey, secretKey: second.body.secretKey } };
    expect(await open(other)).not.toBe(await open(alice));
  });

  it('keeps a key alive with PUT (60 minutes from then) and lets it expire without', async () => {
    const listenKey = await open(alice);
    clock.advance(50 * MINUTE);
    expect(await call(alice, 'PUT', { listenKey })).toMatchObject({ status: 200, body: {} });
    clock.advance(50 * MINUTE);
    expect((await call(alice, 'PUT', { listenKey })).body).toEqual({});
    clock.advance(61 * MINUTE);
    const expired = await call(alice, 'PUT', { listenKey });
    expect(expired).toMatchObject({ status: 400, body: { code: -1125 } });
    expect(await open(alice)).not.toBe(listenKey);
  });

  it('closes a key with DELETE; the key is gone afterwards', async () => {
    const listenKey = await open(alice);
    expect(await call(alice, 'DELETE', { listenKey })).toMatchObject({ status: 200, body: {} });
    expect(await call(alice, 'PUT', { listenKey })).toMatchObject({ status: 400, body: { code: -1125 } });
    expect(await call(alice, 'DELETE', { listenKey })).toMatchObject({ status: 400, body: { code: -1125 } });
    expect(await open(alice)).not.toBe(listenKey);
  });

  it.each(['PUT', 'DELETE'])(
    '%s refuses unknown, malformed, missing and foreign keys and changes nothing',
    async (method) => {
      const bobs = await open(bob);
      expect(await call(alice, method, { listenKey: 'a'.repeat(60) })).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await call(alice, method, { listenKey: 'a'.repeat(59) })).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await call(alice, method, { listenKey: `${'a'.repeat(59)}-` })).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await call(alice, method)).toMatchObject({ status: 400, body: { code: -1102 } });
      const foreign = await call(alice, method, { listenKey: bobs });
      expect(foreign).toMatchObject({ status: 403, body: { code: -2015 } });
      errorBodySchema.parse(foreign.body);
      expect(await open(bob)).toBe(bobs);
    },
  );

  it('needs the API key header, a fresh timestamp and a valid signature when one is sent; works unsigned', async () => {
    const unsigned = await http<{ listenKey: string }>(exchange.baseUrl, 'POST', `${PATH}?timestamp=${clock.now()}`, {
      headers: { 'X-SERVICE-KEY': alice.key.apiKey },
    });
    expect(unsigned.status).toBe(200);
    expect(unsigned.body.listenKey).toBe(await open(alice));
    expect((await http(exchange.baseUrl, 'POST', `${PATH}?timestamp=${clock.now()}`)).body).toMatchObject({
      code: -1002,
    });
    expect(
      (await http(exchange.baseUrl, 'POST', PATH, { headers: { 'X-SERVICE-KEY': alice.key.apiKey } })).body,
    ).toMatchObject({ code: -1102 });
    expect(
      (await signedRequest(exchange.baseUrl, 'POST', PATH, alice.key, { timestamp: clock.now() - 10_000 })).body,
    ).toMatchObject({ code: -1021 });
    expect(
      (
        await signedRequest(exchange.baseUrl, 'POST', PATH, alice.key, {
          timestamp: clock.now(),
          secretOverride: 'wrong',
        })
      ).body,
    ).toMatchObject({ code: -1022 });
    expect(
      (await signedRequest(exchange.baseUrl, 'POST', PATH, alice.key, { timestamp: clock.now(), recvWindow: 70_000 }))
        .body,
    ).toMatchObject({ code: -1025 });
  });

  it('refuses a key without the read permission (403, -2015)', async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const tradeOnly = await createFundedUser(exchange.baseUrl, token, {}, ['trade']);
    expect(await call(tradeOnly, 'POST')).toMatchObject({ status: 403, body: { code: -2015 } });
  });
});
