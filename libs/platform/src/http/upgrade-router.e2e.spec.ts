import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseRawAnswer, RawConnection } from '../../../../test/support/raw-connection';
import { waitFor } from '../../../../test/support/wait-for';
import { UpgradeRouter } from './upgrade-router';

const upgrade = (path: string, protocol = 'h2c'): string =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: ${protocol}\r\nConnection: Upgrade\r\n\r\n`;

/** A bare Node HTTP server with the router on it: what every app's server has under Fastify. */
describe('the upgrade router of an HTTP server', () => {
  let server: Server;
  let base: string;
  /** Sockets the owned route holds without answering, as a handler looking something up does. */
  const held: Duplex[] = [];

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('{}'));
    UpgradeRouter.of(server).route(
      (path) => path === '/owned',
      (_request, socket) => void held.push(socket),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is one router per server, however many services ask for it', () => {
    expect(UpgradeRouter.of(server)).toBe(UpgradeRouter.of(server));
    expect(server.listenerCount('upgrade')).toBe(1);
  });

  it.each(['h2c', 'websocket'])(
    'answers an %s upgrade on a path nobody owns with 404 and {code, msg}, and closes it',
    async (protocol) => {
      const answer = parseRawAnswer(await RawConnection.exchange(base, upgrade('/nope?x=<script>', protocol)));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: -1020, msg: expect.any(String) });
      expect(JSON.stringify(answer.body)).not.toContain('script');
    },
  );

  it('survives a reset of a socket a handler holds, and keeps serving', async () => {
    const before = held.length;
    const connection = await RawConnection.open(base);
    connection.socket.write(upgrade('/owned'));
    await waitFor(() => held.length > before, 'the route to take the socket');
    const socket = held[held.length - 1]!;
    connection.reset();
    await waitFor(() => socket.destroyed, 'the server to see the reset');
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('survives resets right after an upgrade on a path nobody owns', async () => {
    for (let i = 0; i < 20; i++) {
      const connection = await RawConnection.open(base);
      connection.socket.write(upgrade('/nope'));
      connection.reset();
    }
    expect((await fetch(`${base}/`)).status).toBe(200);
  });
});
