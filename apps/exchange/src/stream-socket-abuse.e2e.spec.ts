import 'reflect-metadata';
import WebSocket from 'ws';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { NonReadingWebSocket, parseRawAnswer, RawConnection } from '../../../test/support/raw-connection';
import { signedRequest } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

const PUBLIC = '/openapi/quote/ws/v1';
const MB = 1024 * 1024;

/** A `ws` client that reads everything: what a well-behaved subscriber looks like. */
async function politeClient(
  base: string,
  path: string,
): Promise<{ ws: WebSocket; messages: string[]; closed: () => number | undefined }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`);
  const messages: string[] = [];
  let code: number | undefined;
  ws.on('message', (data) => messages.push(data.toString()));
  ws.on('close', (c) => (code = c));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages, closed: () => code };
}

async function listenKeyOf(exchange: TestExchange, user: TestUser): Promise<string> {
  return (
    await signedRequest<{ listenKey: string }>(exchange.baseUrl, 'POST', '/openapi/v1/userDataStream', user.key, {
      timestamp: Date.now(),
    })
  ).body.listenKey;
}

/** Memory of this process (the exchange runs in it) in MB, for the report and a loose bound. */
const rssMb = (): number => Math.round(process.memoryUsage().rss / MB);

describe('abusive stream sockets, default limits', () => {
  let exchange: TestExchange;
  let user: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({ env: { WS_MAX_SOCKETS_PER_IP: '4' } });
    user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!);
  });
  afterAll(async () => {
    await exchange.close();
  });

  it('closes a socket that floods messages with 1008, on both streams, while a polite client is served', async () => {
    const polite = await politeClient(exchange.baseUrl, PUBLIC);
    const before = rssMb();
    for (const path of [PUBLIC, `/openapi/ws/${await listenKeyOf(exchange, user)}`]) {
      const flooder = await politeClient(exchange.baseUrl, path);
      for (let i = 0; i < 100 && flooder.ws.readyState === WebSocket.OPEN; i++) flooder.ws.send('x');
      await waitFor(() => flooder.closed() !== undefined, `the flood on ${path} to be closed`);
      expect(flooder.closed()).toBe(1008);
    }
    polite.ws.send(JSON.stringify({ ping: 7 }));
    await waitFor(() => polite.messages.includes('{"pong":7}'), 'the polite client to get its pong');
    expect(polite.closed()).toBeUndefined();
    polite.ws.close();
    console.log(`flood of 100 messages per socket: rss ${before} -> ${rssMb()} MB`);
  });

  it('cuts a client that floods 1-byte frames and never reads, and keeps answering HTTP', async () => {
    const before = rssMb();
    const flooder = await NonReadingWebSocket.open(exchange.baseUrl, PUBLIC);
    const sent = await flood(flooder, 'x', 64 * MB);
    expect(flooder.closed).toBe(true);
    expect((await http(exchange.baseUrl, 'GET', '/openapi/v1/time')).status).toBe(200);
    console.log(`1-byte frames, never reading: cut after ${sent} bytes; rss ${before} -> ${rssMb()} MB`);
    expect(rssMb() - before).toBeLessThan(200);
  });

  it('refuses a socket past WS_MAX_SOCKETS_PER_IP with 429 / -1003 and admits one again when a socket closes', async () => {
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await politeClient(exchange.baseUrl, PUBLIC));
    const refused = parseRawAnswer(
      await RawConnection.exchange(
        exchange.baseUrl,
        `GET ${PUBLIC} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      ),
    );
    expect(refused).toMatchObject({ status: 429, body: { code: -1003 } });
    open.pop()!.ws.close();
    await waitFor(async () => {
      try {
        open.push(await politeClient(exchange.baseUrl, PUBLIC));
        return true;
      } catch {
        return false;
      }
    }, 'a socket to be admitted again');
    for (const client of open) client.ws.close();
  });
});

describe('clients that never read, inbound rate limit out of the way', () => {
  let exchange: TestExchange;
  let user: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({
      env: { WS_MAX_MESSAGES_PER_SECOND: '1000000', USER_STREAM_MAX_BUFFERED_BYTES: String(4 * MB) },
    });
    user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!);
  });
  afterAll(async () => {
    await exchange.close();
  });

  it('drops a socket whose pongs pile up unread past the unsent-bytes cap, on both streams', async () => {
    const ping = JSON.stringify({ ping: 'p'.repeat(4000) });
    for (const path of [PUBLIC, `/openapi/ws/${await listenKeyOf(exchange, user)}`]) {
      const before = rssMb();
      const flooder = await NonReadingWebSocket.open(exchange.baseUrl, path);
      const sent = await flood(flooder, ping, 256 * MB);
      expect(flooder.closed).toBe(true);
      console.log(
        `4 KB pings on ${path.slice(0, 20)}, never reading: cut after ${Math.round(sent / MB)} MB sent; rss ${before} -> ${rssMb()} MB`,
      );
      expect(rssMb() - before).toBeLessThan(200);
    }
    expect((await http(exchange.baseUrl, 'GET', '/openapi/v1/time')).status).toBe(200);
  });
});

/** Floods until the server cuts the socket; bounded, so a server that never cuts fails the test rather than hanging it. */
async function flood(flooder: NonReadingWebSocket, text: string, maxBytes: number): Promise<number> {
  const sent = await flooder.flood(text, maxBytes);
  await waitFor(() => flooder.closed, 'the server to cut the flooding socket', 10_000).finally(() => flooder.destroy());
  return sent;
}
