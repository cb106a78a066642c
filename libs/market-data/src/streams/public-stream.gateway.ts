import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { answerHandshakeErrors, ApiError, CLOCK, type Clock, ErrorCode, Metrics } from '@exchange/platform';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { MarketReader } from '../reading/market-reader';
import { isStreamTopic } from './stream-frames';
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
 * path and leaves other paths to their owners. Clients send `{symbol, topic, event}` with event
 * sub, cancel or cancel_all (symbol may list several, comma-separated) and `{"ping": ts}`,
 * answered `{"pong": ts}`. The server pings every 30 s and drops a socket that did not answer
 * the previous ping, and closes every socket at 24 h.
 */
@Injectable()
export class PublicStreamGateway implements OnModuleInit, OnApplicationShutdown {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly hub: StreamHub;
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private pinger: NodeJS.Timeout | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reader: MarketReader,
    @Inject(CLOCK) clock: Clock,
    @Inject(Metrics) metrics: Metrics,
  ) {
    answerHandshakeErrors(this.server);
    const slow = metrics.counter('market_data_stream_slow_consumers_total', `Public stream sockets dropped because their unsent frames passed ${MAX_BUFFERED_BYTES} bytes`);
    metrics.gauge('market_data_stream_sockets', 'Open public stream sockets', [], (g) => g.set(this.server.clients.size));
    this.hub = new StreamHub(reader.fold, () => clock.now(), () => slow.inc());
    reader.onChanges((changes) => this.hub.publish(changes));
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((request.url ?? '').split('?')[0] !== PUBLIC_STREAM_PATH) return;
      this.server.handleUpgrade(request, socket, head, (ws) => this.connected(ws));
    });
    this.pinger = setInterval(() => this.pingAll(), PING_EVERY_MS);
    this.pinger.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pinger);
    for (const ws of this.server.clients) ws.close(1001, 'server shutting down');
    this.server.close();
  }

  private connected(ws: WebSocket): void {
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    ws.on('message', (data: RawData) => this.onMessage(ws, data));
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
        ws.send(JSON.stringify({ pong: message.ping }));
        return;
      }
      this.handle(ws, message);
    } catch (error) {
      const body = error instanceof ApiError ? error.toBody() : ApiError.internal().toBody();
      ws.send(JSON.stringify(body));
    }
  }

  private handle(ws: WebSocket, message: ClientMessage): void {
    if (message.event === 'cancel_all') {
      this.hub.forget(ws);
      return;
    }
    if (message.event !== 'sub' && message.event !== 'cancel') throw ApiError.invalid('event', 'expected sub, cancel or cancel_all');
    if (typeof message.topic !== 'string' || message.topic === '') throw ApiError.missing('topic');
    const topic = message.topic;
    if (!isStreamTopic(topic)) {
      if (topic.startsWith('kline_')) throw new ApiError(ErrorCode.INVALID_INTERVAL, `Invalid interval in topic '${topic.slice(0, 40)}'.`);
      throw ApiError.invalid('topic', 'expected realtimes, trade, depth, diffDepth or kline_<interval>');
    }
    if (typeof message.symbol !== 'string' || message.symbol === '') throw ApiError.missing('symbol');
    const symbols = message.symbol.split(',').map((s) => s.trim());
    for (const symbol of symbols) {
      if (!this.reader.fold.symbols.has(symbol)) throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol.slice(0, 40)}'.`);
    }
    for (const symbol of symbols) {
      if (message.event === 'cancel') this.hub.unsubscribe(ws, symbol, topic);
      else if (!this.hub.subscribe(ws, symbol, topic)) throw ApiError.invalid('symbol', 'too many subscriptions on this connection');
    }
  }

  private pingAll(): void {
    for (const ws of this.server.clients) {
      if (this.alive.get(ws) === false) {
        this.hub.forget(ws);
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
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
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'The message must be a JSON object.');
  return parsed as ClientMessage;
}
