import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { rawRequest } from '../../../../test/fuzz/raw-http';
import { answerHandshakeErrors, refuseConnectRequests } from './raw-refusals';

/** A bare HTTP server with a `ws` server in noServer mode on /ws, as the stream gateways use it. */
async function serve(
  wire: (server: Server, wss: WebSocketServer) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((_req, res) => res.end('{}'));
  server.on('upgrade', (request, socket, head) => {
    if (request.url === '/ws') wss.handleUpgrade(request, socket, head, (ws) => ws.close());
  });
  wire(server, wss);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const ask = (port: number, text: string) =>
  rawRequest(port, Buffer.from(text.replace(/\n/g, '\r\n')), { timeoutMs: 5_000 });

describe('raw refusals', () => {
  it('answers CONNECT with the envelope instead of closing without a word', async () => {
    const server = await serve((http) => refuseConnectRequests(http));
    try {
      const answer = await ask(server.port, 'CONNECT /openapi/v1/time HTTP/1.1\nHost: x\n\n');
      expect(answer).toMatchObject({ kind: 'answer', status: 404, headers: { 'content-type': 'application/json' } });
      if (answer.kind === 'answer')
        expect(JSON.parse(answer.body.toString())).toEqual({ code: -1020, msg: expect.stringContaining('CONNECT') });
    } finally {
      await server.close();
    }
  });

  it.each([
    ['POST', 'Sec-WebSocket-Key: ZnV6ei1oYW5kc2hha2UhIQ==\nSec-WebSocket-Version: 13\n', 405, -1020],
    ['GET', 'Sec-WebSocket-Version: 13\n', 400, -1100],
    ['GET', 'Sec-WebSocket-Key: ZnV6ei1oYW5kc2hha2UhIQ==\nSec-WebSocket-Version: 12\n', 400, -1100],
    [
      'GET',
      'Sec-WebSocket-Key: ZnV6ei1oYW5kc2hha2UhIQ==\nSec-WebSocket-Version: 13\nSec-WebSocket-Protocol: a, , b\n',
      400,
      -1100,
    ],
  ])('answers a malformed handshake (%s, %j) in the envelope, not text/html', async (method, headers, status, code) => {
    const server = await serve((_http, wss) => answerHandshakeErrors(wss));
    try {
      const answer = await ask(
        server.port,
        `${method} /ws HTTP/1.1\nHost: x\nUpgrade: websocket\nConnection: Upgrade\n${headers}\n`,
      );
      expect(answer).toMatchObject({ kind: 'answer', status, headers: { 'content-type': 'application/json' } });
      if (answer.kind === 'answer')
        expect(JSON.parse(answer.body.toString())).toEqual({ code, msg: expect.any(String) });
    } finally {
      await server.close();
    }
  });
});
