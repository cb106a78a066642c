import type { SocketGuard } from '@exchange/platform';
import type { WebSocket } from 'ws';
import type { ContractPriceBoard, ContractPriceRecord, MarketChange, MarketFold } from '../domain';
import { batchFrames, frame, initialData, priceItem, type StreamTopic } from './stream-frames';

/** A socket whose unsent data passes this is too slow to follow the market: it is dropped, not buffered without limit. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 1000;

export type SocketWriter = Pick<SocketGuard, 'writable'>;

/**
 * Who is subscribed to what, and the fan-out: each batch's frames are encoded once per symbol
 * and topic and the same string is written to every subscriber.
 */
export class StreamHub {
  private readonly subscribers = new Map<string, Set<WebSocket>>();
  private readonly bySocket = new Map<WebSocket, Set<string>>();

  constructor(
    private readonly fold: MarketFold,
    private readonly now: () => number,
    /** Every write goes through it: a socket past the unsent-bytes cap is dropped there. */
    private readonly writer: SocketWriter,
    /** Contract prices and each contract's index name, for the markPrice and index topics. */
    private readonly prices?: { board: ContractPriceBoard; indexOf: (symbol: string) => string },
  ) {}

  get socketCount(): number {
    return this.bySocket.size;
  }

  /** Subscribes and sends the topic's current state as the first frame; false when the socket holds too many. */
  subscribe(socket: WebSocket, symbol: string, topic: StreamTopic): boolean {
    const keys = this.keysOf(socket);
    const key = `${symbol}|${topic}`;
    if (!keys.has(key) && keys.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) return false;
    keys.add(key);
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(socket);
    const market = this.fold.symbols.get(symbol)!;
    const record = this.prices?.board.get(symbol);
    const data =
      topic === 'markPrice' || topic === 'index' ? this.priceData(topic, record) : initialData(market, topic);
    this.send(socket, frame(market, topic, data, true, this.now()));
    return true;
  }

  /** A contract's new prices, to the subscribers of its markPrice and index topics. */
  publishPrices(record: ContractPriceRecord): void {
    const market = this.fold.symbols.get(record.symbol);
    if (!market) return;
    const sendTime = this.now();
    for (const topic of ['markPrice', 'index'] as const) {
      const sockets = this.subscribers.get(`${record.symbol}|${topic}`);
      const data = this.priceData(topic, record);
      if (!sockets || sockets.size === 0 || data.length === 0) continue;
      const text = frame(market, topic, data, false, sendTime);
      for (const socket of sockets) this.send(socket, text);
    }
  }

  private priceData(topic: 'markPrice' | 'index', record: ContractPriceRecord | undefined): unknown[] {
    const item = record && this.prices && priceItem(topic, record, this.prices.indexOf(record.symbol));
    return item ? [item] : [];
  }

  unsubscribe(socket: WebSocket, symbol: string, topic: StreamTopic): void {
    const key = `${symbol}|${topic}`;
    this.bySocket.get(socket)?.delete(key);
    this.subscribers.get(key)?.delete(socket);
  }

  /** Drops every subscription of the socket (cancel_all, or the socket closed). */
  forget(socket: WebSocket): void {
    for (const key of this.bySocket.get(socket) ?? []) this.subscribers.get(key)?.delete(socket);
    this.bySocket.delete(socket);
  }

  publish(changes: readonly MarketChange[]): void {
    const sendTime = this.now();
    for (const [key, f] of batchFrames(changes, (symbol) => this.fold.symbols.get(symbol)!)) {
      const sockets = this.subscribers.get(key);
      if (!sockets || sockets.size === 0) continue;
      const text = frame(f.market, f.topic, f.data, false, sendTime);
      for (const socket of sockets) this.send(socket, text);
    }
  }

  private send(socket: WebSocket, text: string): void {
    if (this.writer.writable(socket)) socket.send(text);
    else this.forget(socket);
  }

  private keysOf(socket: WebSocket): Set<string> {
    let keys = this.bySocket.get(socket);
    if (!keys) this.bySocket.set(socket, (keys = new Set()));
    return keys;
  }
}
