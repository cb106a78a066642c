import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import {
  type Clock,
  ErrorCode,
  LISTEN_KEY_FORMAT,
  type ListenKeyRecord,
  type ListenKeyStore,
  type Logger,
  refuseUpgrade,
  SocketGuard,
  type SocketGuardEvents,
  type SocketGuardSettings,
  UpgradeRouter,
} from '@exchange/platform';
import { keepaliveAction } from '../domain/keepalive-policy';
import type { StreamStartReader } from '@exchange/ledger-query';
import type { AccountStream, AccountStreams } from '../streaming/account-streams';
import { ApiKeyVerdicts } from './api-key-verdicts';
import { StreamConnection } from './stream-connection';

export const USER_STREAM_PATH = '/openapi/ws/';
/** A key is looked up again this often even when nothing announced a change: a removal whose announcement was lost (Redis reconnecting) still ends its sockets. */
const REVALIDATE_MS = 60_000;

export interface SocketServerSettings extends Omit<SocketGuardSettings, 'maxPayloadBytes'> {
  sweepIntervalMs: number;
  /** API keys remembered as live or revoked (USER_STREAM_API_KEY_CACHE_MAX_ENTRIES). */
  maxApiKeyEntries: number;
}

export type SocketServerEvents = SocketGuardEvents;

/** Clients send only pings: a larger frame closes the socket (1009). */
const MAX_MESSAGE_BYTES = 1024;

interface KeySockets {
  record: ListenKeyRecord;
  /** A store read is under way (the cached expiry passed; a PUT may have moved it). */
  checking: boolean;
  checkedAt: number;
  connections: Set<StreamConnection>;
}

/**
 * WebSocket /openapi/ws/<listenKey> on the app's HTTP server (its upgrade router hands over the
 * path). An unknown or expired key gets an HTTP error and no socket. One timer sweeps every
 * socket (keep-alive, the 24 h cap) and every key (expiry) instead of a timer per socket.
 */
export class UserStreamSocketServer {
  private readonly guard: SocketGuard;
  private readonly keys = new Map<string, KeySockets>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closing = false;
  /** A socket opening on a revoked key is refused even if the tables were read just before the revocation. */
  private readonly apiKeys: ApiKeyVerdicts;

  constructor(
    private readonly store: ListenKeyStore,
    private readonly streams: AccountStreams,
    private readonly reader: StreamStartReader,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: SocketServerSettings,
    events: SocketServerEvents,
  ) {
    this.guard = new SocketGuard({ ...settings, maxPayloadBytes: MAX_MESSAGE_BYTES }, events);
    this.apiKeys = new ApiKeyVerdicts(settings.maxApiKeyEntries);
  }

  async attach(server: Server): Promise<void> {
    this.unsubscribe = await this.store.onRemoved((listenKey) => this.closeKey(listenKey, 1000, 'listenKey closed'));
    UpgradeRouter.of(server, this.logger).route((path) => path.startsWith(USER_STREAM_PATH), this.onUpgrade);
    this.timer = setInterval(() => this.sweep(), this.settings.sweepIntervalMs);
    this.timer.unref();
  }

  /** Going away: clients reconnect (to another replica) and re-query. */
  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    for (const key of this.keys.values()) for (const c of key.connections) c.close(1001, 'server shutting down');
    this.guard.wss.close();
  }

  /** A revoked API key's streams end at once, on every replica (each reads the revocation from the ledger's events). */
  revokeApiKey(apiKey: string): void {
    this.apiKeys.revoke(apiKey);
    for (const key of this.keys.values()) {
      if (key.record.apiKey === apiKey)
        for (const connection of key.connections) connection.close(1000, 'API key revoked');
    }
  }

  get socketCount(): number {
    let count = 0;
    for (const key of this.keys.values()) count += key.connections.size;
    return count;
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!this.guard.admit(request, socket)) return;
    const path = (request.url ?? '').split('?')[0] ?? '';
    this.accept(request, socket, head, path.slice(USER_STREAM_PATH.length)).catch((error: unknown) => {
      this.logger.error({ err: error }, 'user-stream: accepting a socket failed');
      refuseUpgrade(
        socket,
        503,
        ErrorCode.SERVICE_UNAVAILABLE,
        'The user data stream is unavailable; try again shortly.',
      );
    });
  };

  private async accept(request: IncomingMessage, socket: Duplex, head: Buffer, listenKey: string): Promise<void> {
    if (this.closing)
      return refuseUpgrade(socket, 503, ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; connect again.');
    if (listenKey === '' || listenKey.includes('/'))
      return refuseUpgrade(
        socket,
        404,
        ErrorCode.UNSUPPORTED_OPERATION,
        'Unsupported operation: the stream is at /openapi/ws/<listenKey>.',
      );
    if (!LISTEN_KEY_FORMAT.test(listenKey))
      return refuseUpgrade(socket, 400, ErrorCode.INVALID_LISTEN_KEY, 'This listenKey does not exist.');
    const record = await this.store.find(listenKey);
    if (!record) return refuseUpgrade(socket, 400, ErrorCode.INVALID_LISTEN_KEY, 'This listenKey does not exist.');
    if (!(await this.apiKeys.isLive(record.apiKey, () => this.reader.isApiKeyLive(record.apiKey))))
      return refuseUpgrade(socket, 401, ErrorCode.REJECTED_API_KEY, 'The API key of this listenKey was revoked.');
    const stream = await this.streams.prepare(record.accountId);
    if (!stream) return refuseUpgrade(socket, 400, ErrorCode.INVALID_LISTEN_KEY, 'This listenKey does not exist.');
    if (this.closing) {
      socket.destroy();
      return;
    }
    this.guard.accept(request, socket, head, (ws) => this.open(ws, record, stream));
  }

  private open(ws: WebSocket, record: ListenKeyRecord, prepared: AccountStream): void {
    if (this.apiKeys.isRevoked(record.apiKey)) {
      ws.close(1000, 'API key revoked');
      return;
    }
    const now = this.clock.now();
    const connection = new StreamConnection(ws, record.listenKey, prepared, now, this.guard);
    connection.stream = this.streams.join(prepared, connection);
    let key = this.keys.get(record.listenKey);
    if (!key)
      this.keys.set(record.listenKey, (key = { record, checking: false, checkedAt: now, connections: new Set() }));
    key.connections.add(connection);
    ws.on('pong', () => connection.alive(this.clock.now()));
    this.guard.onMessage(ws, (data, isBinary) => this.onMessage(connection, data, isBinary));
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
    if (message !== null && typeof message === 'object' && 'ping' in message)
      connection.deliver(Buffer.from(JSON.stringify({ pong: (message as { ping: unknown }).ping })));
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
            // A key being rechecked may have expired: its sockets get listenKeyExpired and a clean close first.
            if (!key.checking) connection.ws.terminate();
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
        // Judged at the answer's time, not the question's: the key may have expired while the store answered.
        const answeredAt = this.clock.now();
        if (live) key.record = live;
        else if (answeredAt >= key.record.expiresAt) this.expire(key, answeredAt);
        else this.closeKey(key.record.listenKey, 1000, 'listenKey closed');
      })
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'user-stream: checking a listenKey failed; retrying at the next sweep'),
      )
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
