import 'reflect-metadata';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MarketDataModule } from '@exchange/market-data';
import { UserStreamModule } from '@exchange/user-stream';
import WebSocket from 'ws';
import { http } from '../../../test/support/http-client';
import { parseRawAnswer, RawConnection } from '../../../test/support/raw-connection';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

const upgrade = (path: string, protocol: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: ${protocol}\r\nConnection: Upgrade\r\n${extra}\r\n`;
const websocketHeaders = 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

/** Upgrades nobody serves, broken handshakes and resets, over raw TCP: one packet must never take the exchange down. */
describe('hostile upgrades on the one-process exchange', () => {
  let exchange: TestExchange;
  let base: string;
  /** The raw sockets of every upgrade the server saw, to know when it has seen a reset. */
  const upgraded: Duplex[] = [];

  beforeAll(async () => {
    exchange = await startTestExchange();
    base = exchange.baseUrl;
    (exchange.app.getHttpServer() as Server).on('upgrade', (_request, socket: Duplex) => upgraded.push(socket));
  });

  afterAll(async () => {
    await exchange.close();
  });

  it.each([
    ['h2c', ''],
    ['websocket', websocketHeaders],
  ])('answers an %s upgrade on a path no stream owns with 404 / -1020 and closes it', async (protocol, extra) => {
    const answer = parseRawAnswer(await RawConnection.exchange(base, upgrade('/nope', protocol, extra)));
    expect(answer).toMatchObject({ status: 404, body: { code: -1020, msg: expect.any(String) } });
  });

  it('refuses a handshake that is not a WebSocket one on a stream path in the {code, msg} envelope', async () => {
    for (const path of ['/openapi/quote/ws/v1', `/openapi/ws/${'a'.repeat(60)}`]) {
      const answer = parseRawAnswer(await RawConnection.exchange(base, upgrade(path, 'h2c')));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: expect.any(Number), msg: expect.any(String) });
    }
  });

  it('keeps serving after upgrades are reset by their clients, on every path', async () => {
    for (const path of ['/nope', '/openapi/quote/ws/v1', `/openapi/ws/${'a'.repeat(60)}`, '/openapi/ws/']) {
      const before = upgraded.length;
      const connection = await RawConnection.open(base);
      connection.socket.write(upgrade(path, 'websocket', websocketHeaders));
      await waitFor(() => upgraded.length > before, `the server to see the upgrade of ${path}`);
      connection.reset();
      await waitFor(() => upgraded[before]!.destroyed, `the server to drop the socket of ${path}`);
    }
    expect((await http(base, 'GET', '/openapi/v1/time')).status).toBe(200);
  });

  it('still opens the public stream', async () => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/openapi/quote/ws/v1`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.close();
  });
});

describe('hostile upgrades on an app that serves one stream', () => {
  it.each([
    ['market-data', MarketDataModule],
    ['user-stream', UserStreamModule],
  ])('%s answers upgrades of paths it does not own with 404', async (_name, module) => {
    const exchange = await startTestExchange({ modules: [module] });
    try {
      const other = module === MarketDataModule ? `/openapi/ws/${'a'.repeat(60)}` : '/openapi/quote/ws/v1';
      for (const path of ['/nope', other]) {
        const answer = parseRawAnswer(
          await RawConnection.exchange(exchange.baseUrl, upgrade(path, 'websocket', websocketHeaders)),
        );
        expect(answer).toMatchObject({ status: 404, body: { code: -1020 } });
      }
    } finally {
      await exchange.close();
    }
  });
});
