import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { ErrorCode } from '../errors/error-codes';
import { refuseUpgrade } from './upgrade-router';

/**
 * Node hands CONNECT requests to 'connect' listeners and, with none, closes the connection
 * without a word. No route takes CONNECT: it gets the same answer as any unknown operation.
 */
export function refuseConnectRequests(server: Server): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    refuseUpgrade(
      socket,
      404,
      ErrorCode.UNSUPPORTED_OPERATION,
      `Unsupported operation: CONNECT ${(request.url ?? '').slice(0, 100)} does not exist.`,
    );
  });
}

/**
 * `ws` refuses a malformed handshake (wrong method, missing or bad Sec-WebSocket-Key or -Version,
 * bad subprotocol list) with a text/html answer of its own unless 'wsClientError' is listened to:
 * this answers those in the envelope instead.
 */
export function answerHandshakeErrors(server: WebSocketServer): void {
  server.on('wsClientError', (error: Error, socket: Duplex) => {
    if (error.message === 'Invalid HTTP method') {
      refuseUpgrade(
        socket,
        405,
        ErrorCode.UNSUPPORTED_OPERATION,
        'Unsupported operation: a WebSocket upgrade must be a GET.',
      );
      return;
    }
    refuseUpgrade(socket, 400, ErrorCode.ILLEGAL_CHARS, `Malformed WebSocket handshake: ${error.message}.`);
  });
}
