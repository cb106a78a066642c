import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import {
  ApiError,
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  ErrorCode,
  MARKETS,
  Metrics,
  SocketGuard,
  UpgradeRouter,
} from '@exchange/platform';
import type { RawData, WebSocket } from 'ws';
import type { Markets } from '@exchange/contracts';
import { ContractPriceBoard } from '../domain';
import { MarketReader } from '../reading/market-reader';
import { isStreamTopic, priceTopics } from './stream-frames';
import { MAX_BUFFERED_BYTES, StreamHub } from './stream-hub';

export const PUBLIC_STREAM_PATH = '/openapi/quote/ws/v1';
const PING_EVERY_MS = 30_000;
const MAX_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_MESSAGE_BYTES = 4096;

interface ClientMessage {
  symbol?: unknown;
  topic?: unknown;
  event?: unknown;
  ping?: unknown;
}

/**
 * The public streams on the app's HTTP server: `ws` in noServer mode takes the upgrades of its
 * path, which the server's upgrade router hands it. Clients send `{symbol, topic, event}` with event
 * sub, cancel or cancel_all (symbol may list several, comma-separated) and `{"ping": ts}`,
 * answered `{"pong": ts}`. The server pings every 30 s and drops a socket that did not answer
 * the previous ping, and closes every socket at 24 h. Every socket goes through a SocketGuard
 * (per-address bound, inbound rate, one unsent-bytes cap on every write).
 */
@Injectable()
export class PublicStreamGateway implements OnModuleInit, OnApplicationShutdown {
  private readonly guard: SocketGuard;
  private readonly hub: StreamHub;
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private pinger: NodeJS.Timeout | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reader: MarketReader,
    @Inject(CLOCK) clock: Clock,
    @Inject(Metrics) metrics: Metrics,
    @Inject(CONFIG) config: Config,
    @Inject(MARKETS) markets: Markets,
    board: ContractPriceBoard,
  ) {
    const slow = metrics.counter(
      'market_data_stream_slow_consumers_total',
      `Public stream sockets dropped because their unsent frames passed ${MAX_BUFFERED_BYTES} bytes`,
    );
    const abusive = metrics.counter(
      'market_data_stream_abusive_sockets_total',
      'Public stream sockets closed (1008) for sending more than WS_MAX_MESSAGES_PER_SECOND',
    );
    const refused = metrics.counter(
      'market_data_stream_refused_sockets_total',
      'Public stream sockets refused because their address held WS_MAX_SOCKETS_PER_IP',
    );
    this.guard = new SocketGuard(
      {
        maxBufferedBytes: MAX_BUFFERED_BYTES,
        maxMessagesPerSecond: config.WS_MAX_MESSAGES_PER_SECOND,
        maxSocketsPerIp: config.WS_MAX_SOCKETS_PER_IP,
        maxPayloadBytes: MAX_MESSAGE_BYTES,
        trustedProxies: config.TRUSTED_PROXIES,
      },
      { slowConsumer: () => slow.inc(), abusive: () => abusive.inc(), refused: () => refused.inc() },
    );
    metrics.gauge('market_data_stream_sockets', 'Open public stream sockets', [], (g) =>
      g.set(this.guard.clients.size),
    );
    const indexOf = (symbol: string) => markets.contract(symbol)?.index ?? symbol;
    this.hub = new StreamHub(reader.fold, () => clock.now(), this.guard, { board, indexOf });
    reader.onChanges((changes) => this.hub.publish(changes));
    board.onAccepted((record) => this.hub.publishPrices(record));
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    UpgradeRouter.of(fastify.server).route(
      (path) => path === PUBLIC_STREAM_PATH,
      (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (this.guard.admit(request, socket)) this.guard.accept(request, socket, head, (ws) => this.connected(ws));
      },
    );
    this.pinger = setInterval(() => this.pingAll(), PING_EVERY_MS);
    this.pinger.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pinger);
    for (const ws of this.guard.clients) ws.close(1001, 'server shutting down');
    this.guard.wss.close();
  }

  private connected(ws: WebSocket): void {
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    this.guard.onMessage(ws, (data) => this.onMessage(ws, data));
    const lifetime = setTimeout(() => ws.close(1000, 'connection lifetime of 24 hours reached'), MAX_LIFETIME_MS);
    lifetime.unref();
    ws.on('close', () => {
      clearTimeout(lifetime);
      this.hub.forget(ws);
    });
    ws.on('error', () => this.hub.forget(ws));
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    try {
      const message = parseMessage(data);
      if (message.ping !== undefined) {
        this.guard.send(ws, JSON.stringify({ pong: message.ping }));
        return;
      }
      this.handle(ws, message);
    } catch (error) {
      const body = error instanceof ApiError ? error.toBody() : ApiError.internal().toBody();
      this.guard.send(ws, JSON.stringify(body));
    }
  }

  private handle(ws: WebSocket, message: ClientMessage): void {
    if (message.event === 'cancel_all') {
      this.hub.forget(ws);
      return;
    }
    if (message.event !== 'sub' && message.event !== 'cancel')
      throw ApiError.invalid('event', 'expected sub, cancel or cancel_all');
    if (typeof message.topic !== 'string' || message.topic === '') throw ApiError.missing('topic');
    const topic = message.topic;
    if (!isStreamTopic(topic)) {
      if (topic.startsWith('kline_'))
        throw new ApiError(ErrorCode.INVALID_INTERVAL, `Invalid interval in topic '${topic.slice(0, 40)}'.`);
      throw ApiError.invalid(
        'topic',
        'expected realtimes, trade, depth, diffDepth, kline_<interval>, or for contracts markPrice or index',
      );
    }
    if (typeof message.symbol !== 'string' || message.symbol === '') throw ApiError.missing('symbol');
    const symbols = message.symbol.split(',').map((s) => s.trim());
    for (const symbol of symbols) {
      const market = this.reader.fold.symbols.get(symbol);
      if (!market || (priceTopics.includes(topic) && market.kind !== 'contract'))
        throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol.slice(0, 40)}' for topic ${topic}.`);
    }
    for (const symbol of symbols) {
      if (message.event === 'cancel') this.hub.unsubscribe(ws, symbol, topic);
      else if (!this.hub.subscribe(ws, symbol, topic))
        throw ApiError.invalid('symbol', 'too many subscriptions on this connection');
    }
  }

  private pingAll(): void {
    for (const ws of this.guard.clients) {
      if (this.alive.get(ws) === false) {
        this.hub.forget(ws);
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      this.guard.ping(ws);
    }
  }
}

function parseMessage(data: RawData): ClientMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString());
  } catch {
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'The message is not JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'The message must be a JSON object.');
  return parsed as ClientMessage;
}
