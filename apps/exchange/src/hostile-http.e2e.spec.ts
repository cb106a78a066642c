import 'reflect-metadata';
import { http } from '../../../test/support/http-client';
import { parseRawAnswer, RawConnection } from '../../../test/support/raw-connection';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

const envelope = { code: expect.any(Number), msg: expect.any(String) };

/** Requests Fastify or Node's parser refuse before any route runs: still `{code, msg}`, never an echo of the input. */
describe('malformed HTTP on the exchange', () => {
  let exchange: TestExchange;
  let base: string;
  const raw = async (request: string) => parseRawAnswer(await RawConnection.exchange(base, request));

  beforeAll(async () => {
    exchange = await startTestExchange();
    base = exchange.baseUrl;
  });
  afterAll(async () => {
    await exchange.close();
  });

  it('answers headers over the limit with 431 in the envelope', async () => {
    const answer = await raw(`GET /openapi/v1/time HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ code: -1100, msg: expect.any(String) });
  });

  it('answers a request line that is not HTTP with 400 in the envelope', async () => {
    const answer = await raw('HELLO<script> /\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: -1100, msg: expect.any(String) });
  });

  it('answers an over-long path parameter with 414 and does not echo the path', async () => {
    const id = `9${'<b>'.repeat(60)}`;
    const answer = await http(base, 'POST', `/admin/v1/users/${id}/sub-accounts`, {
      headers: { authorization: `Bearer ${exchange.infrastructure.config.ADMIN_TOKEN}` },
    });
    expect(answer).toMatchObject({ status: 414, body: { code: -1100 } });
    expect(JSON.stringify(answer.body)).not.toContain('<b>');
  });

  it('answers a path that does not decode with 400 and does not echo it', async () => {
    const answer = await raw(
      'GET /admin/v1/users/%E0%A4%A<i>/sub-accounts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatchObject({ status: 400, body: envelope });
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.stringify(answer.body)).not.toContain('<i>');
  });

  it('refuses a JSON body that repeats a key with -1101, as a form body or a query string is refused', async () => {
    const headers = {
      authorization: `Bearer ${exchange.infrastructure.config.ADMIN_TOKEN}`,
      'content-type': 'application/json',
    };
    const answer = await http(base, 'POST', '/admin/v1/users', { headers, body: '{"name":"alice","name":"mallory"}' });
    expect(answer).toMatchObject({ status: 400, body: { code: -1101 } });
    const signed = await http(base, 'POST', '/openapi/v1/order', {
      headers: { 'content-type': 'application/json', 'x-service-key': 'k' },
      body: '{"symbol":"BTCUSDT","symbol":"ETHUSDT"}',
    });
    expect(signed).toMatchObject({ status: 400, body: { code: -1101 } });
    expect((await http(base, 'POST', '/admin/v1/users', { headers, body: '{"name":"alice"}' })).status).toBe(200);
  });
});

/** Slowloris: connections that trickle their headers are cut at the header timeout, and everyone else is served meanwhile. */
describe('connections that trickle their headers', () => {
  let exchange: TestExchange;

  beforeAll(async () => {
    exchange = await startTestExchange({ env: { HTTP_HEADERS_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await exchange.close();
  });

  it('are answered 408 and closed while another client is served', async () => {
    const tricklers = await Promise.all(Array.from({ length: 20 }, () => RawConnection.open(exchange.baseUrl)));
    for (const t of tricklers) t.socket.write('GET /openapi/v1/time HTTP/1.1\r\nHost: x\r\n');
    // A header byte every 100 ms: each connection stays busy, none ever finishes its headers.
    const trickle = setInterval(() => {
      for (const t of tricklers) if (!t.closed) t.socket.write('X');
    }, 100);
    try {
      const served = await http(exchange.baseUrl, 'GET', '/openapi/v1/time');
      expect(served.status).toBe(200);
      for (const t of tricklers) await t.waitClosed(15_000);
      await waitFor(() => tricklers.every((t) => t.closed), 'every trickling connection to be closed');
    } finally {
      clearInterval(trickle);
    }
    for (const t of tricklers) expect(parseRawAnswer(t.received())).toMatchObject({ status: 408, body: envelope });
    expect((await http(exchange.baseUrl, 'GET', '/openapi/v1/time')).status).toBe(200);
  });
});
