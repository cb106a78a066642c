import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { ErrorCode } from '../errors/error-codes';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

interface UpgradeRoute {
  owns(path: string): boolean;
  handler: UpgradeHandler;
}

const routers = new WeakMap<Server, UpgradeRouter>();

/**
 * The one owner of an HTTP server's 'upgrade' event. Node hands an upgrade's raw socket to the
 * 'upgrade' listeners with its own 'error' listener removed, so a socket no listener takes is
 * never answered, and a reset on it is an unhandled 'error' that ends the process. Services
 * register the paths they serve here; the router puts an error listener on every socket before
 * anyone sees it and answers every upgrade nobody claims with 404 and a close.
 *
 * One per server (`UpgradeRouter.of`), so the one-process exchange, where the public and the user
 * streams share a server, and an app serving one of them alone behave the same.
 */
export class UpgradeRouter {
  private readonly routes: UpgradeRoute[] = [];

  private constructor(private logger?: Logger) {}

  static of(server: Server, logger?: Logger): UpgradeRouter {
    let router = routers.get(server);
    if (!router) {
      router = new UpgradeRouter(logger);
      routers.set(server, router);
      server.on('upgrade', router.onUpgrade);
    }
    router.logger ??= logger;
    return router;
  }

  /** Upgrades whose path (without the query) `owns` go to `handler`, which must answer or take the socket. */
  route(owns: (path: string) => boolean, handler: UpgradeHandler): void {
    this.routes.push({ owns, handler });
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const path = (request.url ?? '').split('?')[0] ?? '';
    const route = this.routes.find((r) => r.owns(path));
    if (!route) {
      refuseUpgrade(
        socket,
        404,
        ErrorCode.UNSUPPORTED_OPERATION,
        'Unsupported operation: no stream is served at this path.',
      );
      return;
    }
    try {
      route.handler(request, socket, head);
    } catch (error) {
      this.logger?.error({ err: error }, 'upgrade: handler failed');
      refuseUpgrade(
        socket,
        500,
        ErrorCode.INTERNAL,
        'Internal error; unable to process your request. Please try again.',
      );
    }
  };
}

/** An HTTP answer on the raw socket instead of the upgrade: the family's error body, then close. */
export function refuseUpgrade(socket: Duplex, status: number, code: number, msg: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code, msg });
  // The http server's sockets are half-open: without the destroy a client that never closes keeps it.
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
