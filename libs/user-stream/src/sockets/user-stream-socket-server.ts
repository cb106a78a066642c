import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { answerHandshakeErrors, type Clock, ErrorCode, LISTEN_KEY_FORMAT, type ListenKeyRecord, type ListenKeyStore, type Logger } from '@exchange/platform';
import { keepaliveAction } from '../domain/keepalive-policy';
import type { StreamStartReader } from '../accounts/stream-start-reader';
import type { AccountStream, AccountStreams } from '../streaming/account-streams';
import { StreamConnection } from './stream-connection';

export const USER_STREAM_PATH = '/openapi/ws/';
/** A key is looked up again this often even when nothing announced a change: a removal whose announcement was lost (Redis reconnecting) still ends its sockets. */
const REVALIDATE_MS = 60_000;

export interface SocketServerSettings {
  sweepIntervalMs: number;
  maxBufferedBytes: number;
}

export interface SocketServerEvents {
  slowConsumer(): void;
}

interface KeySockets {
  record: ListenKeyRecord;
  /** A store read is under way (the cached expiry passed; a PUT may have moved it). */
  checking: boolean;
  checkedAt: number;
  connections: Set<StreamConnection>;
}

/**
 * WebSocket /openapi/ws/<listenKey> on the app's HTTP server. An unknown or expired key gets an
 * HTTP error and no socket; other paths are left to whoever serves them. One timer sweeps every
 * socket (keep-alive, the 24 h cap) and every key (expiry) instead of a timer per socket.
 */
export class UserStreamSocketServer {
  private readonly wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: 1024 });
  private readonly keys = new Map<string, KeySockets>();
  private server: Server | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closing = false;
  /** API keys revoked since this replica started: a socket opening on one is refused even if the tables were read just before. */
  private readonly revoked = new Set<string>();
  /** API keys the ledger's tables showed valid; a later revocation reaches `revoked` through the events. */
  private readonly liveApiKeys = new Set<string>();

  constructor(
    private readonly store: ListenKeyStore,
    private readonly streams: AccountStreams,
    private readonly reader: StreamStartReader,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: SocketServerSettings,
    private readonly events: SocketServerEvents,
  ) {}

  async attach(server: Server): Promise<void> {
    this.server = server;
    answerHandshakeErrors(this.wss);
    this.unsubscribe = await this.store.onRemoved((listenKey) => this.closeKey(listenKey, 1000, 'listenKey closed'));
    server.on('upgrade', this.onUpgrade);
    this.timer = setInterval(() => this.sweep(), this.settings.sweepIntervalMs);
    this.timer.unref();
  }

  /** Going away: clients reconnect (to another replica) and re-query. */
  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.server?.off('upgrade', this.onUpgrade);
    for (const key of this.keys.values()) for (const c of key.connections) c.close(1001, 'server shutting down');
    this.wss.close();
  }

  /** A revoked API key's streams end at once, on every replica (each reads the revocation from the ledger's events). */
  revokeApiKey(apiKey: string): void {
    this.revoked.add(apiKey);
    this.liveApiKeys.delete(apiKey);
    for (const key of this.keys.values()) {
      if (key.record.apiKey === apiKey) for (const connection of key.connections) connection.close(1000, 'API key revoked');
    }
  }

  get socketCount(): number {
    let count = 0;
    for (const key of this.keys.values()) count += key.connections.size;
    return count;
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (!path.startsWith(USER_STREAM_PATH)) return;
    // Until ws takes the socket over, a reset while the key is looked up must not crash the process.
    socket.on('error', () => socket.destroy());
    this.accept(request, socket, head, path.slice(USER_STREAM_PATH.length)).catch((error: unknown) => {
      this.logger.error({ err: error }, 'user-stream: accepting a socket failed');
      refuse(socket, ErrorCode.SERVICE_UNAVAILABLE, 503, 'The user data stream is unavailable; try again shortly.');
    });
  };

  private async accept(request: IncomingMessage, socket: Duplex, head: Buffer, listenKey: string): Promise<void> {
    if (this.closing) return refuse(socket, ErrorCode.SERVICE_UNAVAILABLE, 503, 'The server is shutting down; connect again.');
    if (listenKey === '' || listenKey.includes('/')) return refuse(socket, ErrorCode.UNSUPPORTED_OPERATION, 404, 'Unsupported operation: the stream is at /openapi/ws/<listenKey>.');
    if (!LISTEN_KEY_FORMAT.test(listenKey)) return refuse(socket, ErrorCode.INVALID_LISTEN_KEY, 400, 'This listenKey does not exist.');
    const record = await this.store.find(listenKey);
    if (!record) return refuse(socket, ErrorCode.INVALID_LISTEN_KEY, 400, 'This listenKey does not exist.');
    if (!(await this.apiKeyLive(record.apiKey))) return refuse(socket, ErrorCode.REJECTED_API_KEY, 401, 'The API key of this listenKey was revoked.');
    const stream = await this.streams.prepare(record.accountId);
    if (!stream) return refuse(socket, ErrorCode.INVALID_LISTEN_KEY, 400, 'This listenKey does not exist.');
    if (socket.destroyed || this.closing) {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, record, stream));
  }

  private async apiKeyLive(apiKey: string): Promise<boolean> {
    if (this.revoked.has(apiKey)) return false;
    if (this.liveApiKeys.has(apiKey)) return true;
    const live = await this.reader.isApiKeyLive(apiKey);
    if (live && !this.revoked.has(apiKey)) this.liveApiKeys.add(apiKey);
    return live;
  }

  private open(ws: WebSocket, record: ListenKeyRecord, prepared: AccountStream): void {
    if (this.revoked.has(record.apiKey)) {
      ws.close(1000, 'API key revoked');
      return;
    }
    const now = this.clock.now();
    const connection = new StreamConnection(ws, record.listenKey, prepared, now, this.settings.maxBufferedBytes, () => this.events.slowConsumer());
    connection.stream = this.streams.join(prepared, connection);
    let key = this.keys.get(record.listenKey);
    if (!key) this.keys.set(record.listenKey, (key = { record, checking: false, checkedAt: now, connections: new Set() }));
    key.connections.add(connection);
    ws.on('pong', () => connection.alive(this.clock.now()));
    ws.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => this.forget(connection));
    // A DELETE between the lookup and now was announced before this socket was listed: look again.
    void this.store.find(record.listenKey).then(
      (live) => live || connection.close(1000, 'listenKey closed'),
      () => undefined,
    );
  }

  /** Clients may ping too: `{"ping":<ts>}` is answered with `{"pong":<ts>}`; anything else is ignored. */
  private onMessage(connection: StreamConnection, data: RawData, isBinary: boolean): void {
    connection.alive(this.clock.now());
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (message !== null && typeof message === 'object' && 'ping' in message) connection.ws.send(JSON.stringify({ pong: (message as { ping: unknown }).ping }));
  }

  private forget(connection: StreamConnection): void {
    this.streams.leave(connection.stream, connection);
    const key = this.keys.get(connection.listenKey);
    key?.connections.delete(connection);
    if (key?.connections.size === 0) this.keys.delete(connection.listenKey);
  }

  private closeKey(listenKey: string, code: number, reason: string): void {
    for (const connection of this.keys.get(listenKey)?.connections ?? []) connection.close(code, reason);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const key of this.keys.values()) {
      if (now >= key.record.expiresAt || now - key.checkedAt >= REVALIDATE_MS) this.recheck(key, now);
      for (const connection of key.connections) {
        switch (keepaliveAction(connection, now)) {
          case 'retire':
            connection.close(1000, 'connection lifetime of 24 hours reached');
            break;
          case 'drop':
            connection.ws.terminate();
            break;
          case 'ping':
            connection.ping(now);
            break;
          case 'none':
            break;
        }
      }
    }
    this.streams.sweep(now);
  }

  /** The cached expiry passed (a PUT on any replica may have moved it) or a while went by: the store decides. */
  private recheck(key: KeySockets, now: number): void {
    if (key.checking) return;
    key.checking = true;
    key.checkedAt = now;
    this.store
      .find(key.record.listenKey)
      .then((live) => {
        if (live) key.record = live;
        else if (now >= key.record.expiresAt) this.expire(key, now);
        else this.closeKey(key.record.listenKey, 1000, 'listenKey closed');
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'user-stream: checking a listenKey failed; retrying at the next sweep'))
      .finally(() => {
        key.checking = false;
      });
  }

  private expire(key: KeySockets, now: number): void {
    const [first] = key.connections;
    if (!first) return;
    const listenKey = key.record.listenKey;
    this.streams.sendOwn(first.stream, now, (E) => ({ e: 'listenKeyExpired', E, listenKey }), key.connections);
    for (const connection of key.connections) connection.close(1000, 'listenKey expired');
  }
}

/** An HTTP answer on the raw socket instead of the upgrade: the family's error body, then close. */
function refuse(socket: Duplex, code: number, status: number, msg: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code, msg });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
