import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { ErrorCode } from '../errors/error-codes';
import { ClientIpResolver } from '../http/client-ip';
import { answerHandshakeErrors } from '../http/raw-refusals';
import { refuseUpgrade } from '../http/upgrade-router';

export interface SocketGuardSettings {
  /** Unsent bytes after which a socket is dropped as a slow consumer. */
  maxBufferedBytes: number;
  /** Inbound messages per socket per second; more closes the socket with 1008. */
  maxMessagesPerSecond: number;
  /** Open sockets (handshakes included) per client address on this server. */
  maxSocketsPerIp: number;
  /** Largest inbound frame; ws closes the socket with 1009 beyond it. */
  maxPayloadBytes: number;
  /** TRUSTED_PROXIES: whose X-Forwarded-For names the client. */
  trustedProxies: string;
}

export interface SocketGuardEvents {
  slowConsumer?(): void;
  abusive?(): void;
  refused?(): void;
}

interface InboundWindow {
  startedAt: number;
  count: number;
}

/** A socket closed for abuse gets this long to read its close frame before it is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * What every WebSocket of the exchange goes through, whatever it streams: a bound on sockets per
 * client address, a cap on inbound frames and on inbound messages per second, and one
 * unsent-bytes cap on every write (frames, pongs, error replies, pings alike), so a client that
 * floods or never reads is dropped instead of growing the server's memory. Each stream server
 * owns one guard and writes only through it.
 */
export class SocketGuard {
  readonly wss: WebSocketServer;
  private readonly ips: ClientIpResolver;
  private readonly socketsByIp = new Map<string, number>();
  private readonly inbound = new WeakMap<WebSocket, InboundWindow>();

  constructor(
    private readonly settings: SocketGuardSettings,
    private readonly events: SocketGuardEvents = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: settings.maxPayloadBytes });
    // ws answers a bad handshake in text/html unless someone listens: ours is the family's envelope.
    answerHandshakeErrors(this.wss);
    this.ips = new ClientIpResolver(settings.trustedProxies);
  }

  /**
   * Counts the socket against its address from now until it closes, refusing it (429) past the
   * bound. Returns false when refused; otherwise the caller goes on to `accept`, now or after
   * checks of its own.
   */
  admit(request: IncomingMessage, socket: Duplex): boolean {
    const ip = this.ips.clientIp(request);
    const open = this.socketsByIp.get(ip) ?? 0;
    if (open >= this.settings.maxSocketsPerIp) {
      this.events.refused?.();
      refuseUpgrade(
        socket,
        429,
        ErrorCode.TOO_MUCH_WEIGHT,
        `Too many open sockets from this address; at most ${this.settings.maxSocketsPerIp}.`,
      );
      return false;
    }
    this.socketsByIp.set(ip, open + 1);
    socket.once('close', () => {
      const left = (this.socketsByIp.get(ip) ?? 1) - 1;
      if (left <= 0) this.socketsByIp.delete(ip);
      else this.socketsByIp.set(ip, left);
    });
    return true;
  }

  /** Completes the WebSocket handshake of an admitted socket. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, opened: (ws: WebSocket) => void): void {
    if (socket.destroyed) return;
    this.wss.handleUpgrade(request, socket, head, opened);
  }

  /** Inbound messages pass the rate limit before `handler` sees them. */
  onMessage(ws: WebSocket, handler: (data: RawData, isBinary: boolean) => void): void {
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (!this.withinRate(ws)) return;
      handler(data, isBinary);
    });
  }

  /** False (and the socket dropped) when its unsent bytes passed the cap: nothing may be added to them. */
  writable(ws: WebSocket): boolean {
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (ws.bufferedAmount <= this.settings.maxBufferedBytes) return true;
    ws.terminate();
    this.events.slowConsumer?.();
    return false;
  }

  send(ws: WebSocket, data: string | Buffer): void {
    if (this.writable(ws)) ws.send(data, { binary: false });
  }

  ping(ws: WebSocket): void {
    if (this.writable(ws)) ws.ping();
  }

  /** The open WebSockets (handshakes done). */
  get clients(): ReadonlySet<WebSocket> {
    return this.wss.clients;
  }

  private withinRate(ws: WebSocket): boolean {
    const now = this.now();
    let window = this.inbound.get(ws);
    if (!window || now - window.startedAt >= 1000) this.inbound.set(ws, (window = { startedAt: now, count: 0 }));
    if (++window.count <= this.settings.maxMessagesPerSecond) return true;
    this.events.abusive?.();
    // Reading on would only feed the flood; the close frame is written, the rest of its input ignored.
    ws.close(1008, 'too many messages');
    ws.pause();
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    return false;
  }
}
