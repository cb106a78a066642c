import 'reflect-metadata';
import { brokerInfoSchema, pairsSchema, timeSchema } from '@exchange/market-data';
import { errorBodySchema, ManualClock } from '@exchange/platform';
import { http } from '../../../test/support/http-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

describe('public general endpoints on the embedded exchange', () => {
  const clock = new ManualClock(1_767_225_600_000);
  let exchange: TestExchange;
  let base: string;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock });
    base = exchange.baseUrl;
  });

  afterAll(async () => {
    await exchange.close();
  });

  it('answers ping with an empty object', async () => {
    expect(await http(base, 'GET', '/openapi/v1/ping')).toMatchObject({ status: 200, body: {} });
  });

  it('answers time with the server clock in ms', async () => {
    const answer = await http(base, 'GET', '/openapi/v1/time');
    expect(timeSchema.parse(answer.body)).toEqual({ serverTime: 1_767_225_600_000 });
  });

  it('lists pairs with symbol, quoteToken and baseToken', async () => {
    const answer = await http<unknown[]>(base, 'GET', '/openapi/v1/pairs');
    expect(pairsSchema.parse(answer.body)).toContainEqual({ symbol: 'ETHBTC', quoteToken: 'BTC', baseToken: 'ETH' });
  });

  it('serves brokerInfo and exchangeInfo alike', async () => {
    const info = await http<Record<string, unknown>>(base, 'GET', '/openapi/v1/brokerInfo');
    const alias = await http<Record<string, unknown>>(base, 'GET', '/openapi/v1/exchangeInfo');
    expect(info.status).toBe(200);
    expect(alias.body).toEqual(info.body);
    expect(brokerInfoSchema.parse(info.body)).toMatchObject({
      timezone: 'UTC',
      serverTime: 1_767_225_600_000,
      brokerFilters: [],
    });
  });

  it('refuses an unknown brokerInfo type with -1130', async () => {
    const answer = await http(base, 'GET', '/openapi/v1/brokerInfo?type=futures');
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body)).toMatchObject({ code: -1130 });
  });

  it('refuses a repeated parameter with -1101', async () => {
    const answer = await http(base, 'GET', '/openapi/v1/brokerInfo?type=token&type=options');
    expect(answer).toMatchObject({ status: 400, body: { code: -1101 } });
  });

  it('answers an unknown path with 404 and -1020, in JSON', async () => {
    const answer = await http(base, 'GET', '/openapi/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ code: -1020, msg: expect.stringContaining('/openapi/v1/nothing-here') });
  });

  it('answers a malformed JSON body with 400 and a code, never a stack trace', async () => {
    const answer = await http(base, 'POST', '/openapi/v1/ping', {
      body: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: -1100 });
    expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.js/);
  });

  it('exposes Prometheus metrics on the metrics port only: request durations by route pattern, ledger batches, outbox backlog', async () => {
    await http(base, 'GET', '/openapi/v1/time');
    expect(await http(base, 'GET', '/metrics')).toMatchObject({ status: 404, body: { code: -1020 } });
    expect(await http(exchange.metricsUrl, 'GET', '/anything')).toMatchObject({ status: 404, body: { code: -1020 } });
    const answer = await http<string>(exchange.metricsUrl, 'GET', '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/openapi\/v1\/time"[^}]*status="200"/,
    );
    expect(answer.body).toContain('ledger_batch_commands');
    expect(answer.body).toContain('ledger_projection_commit_seconds');
    expect(answer.body).toContain('wallet_outbox_backlog');
    expect(answer.body).toContain('process_cpu_seconds_total');
  });

  it('answers the liveness and readiness probes', async () => {
    expect((await http(base, 'GET', '/health/live')).status).toBe(200);
    expect((await http(base, 'GET', '/health/ready')).status).toBe(200);
  });
});
