import type { EngineCommand, BookPlaceOrder, SymbolStatus } from './engine-commands';
import type { EngineEvent } from './engine-events';
import { type EngineSnapshot, loadSideOrders, sideOrders, snapshotHash } from './engine-snapshot';
import { FastOrderBook } from './fast-order-book';
import { Matcher } from './matcher';
import { copyOrder, type DepthLevel, type OrderBook, type RestingOrder } from './order-book';
import { isWellFormedOrder } from './order-validation';

export interface MatchingEngineOptions {
  /** The book to run on; a new FastOrderBook by default. It must be empty. */
  book?: OrderBook;
  /** The symbol's initial status from the markets configuration; TRADING by default. */
  status?: SymbolStatus;
}

export interface BookDepth {
  bids: DepthLevel[];
  asks: DepthLevel[];
}

/**
 * One symbol's matching engine: a deterministic fold over its ordered command stream. It reads
 * no clock and publishes nothing; `execute` returns the events a command produced, in order, and
 * the same commands always produce the same events.
 */
export class MatchingEngine {
  private status: SymbolStatus;
  private readonly matcher: Matcher;

  constructor(options: MatchingEngineOptions = {}) {
    const book = options.book ?? new FastOrderBook();
    if (book.orderCount !== 0) throw new Error('MatchingEngine needs an empty book');
    this.matcher = new Matcher(book);
    this.status = options.status ?? 'TRADING';
  }

  /** An engine that continues exactly where the one that took `snapshot` stood. */
  static restore(snapshot: EngineSnapshot, book: OrderBook = new FastOrderBook()): MatchingEngine {
    if (snapshot.version !== 1) throw new Error(`engine snapshot: unsupported version ${String(snapshot.version)}`);
    const engine = new MatchingEngine({ book, status: snapshot.status });
    loadSideOrders(book, 'BUY', snapshot.bids);
    loadSideOrders(book, 'SELL', snapshot.asks);
    engine.matcher.lastTradeId = snapshot.lastTradeId;
    engine.matcher.lastUpdateId = snapshot.lastUpdateId;
    return engine;
  }

  get symbolStatus(): SymbolStatus {
    return this.status;
  }

  get orderCount(): number {
    return this.matcher.book.orderCount;
  }

  /** The id of the last trade and of the last L2 update (what a depth answer's lastUpdateId is). */
  get sequences(): { lastTradeId: number; lastUpdateId: number } {
    return { lastTradeId: this.matcher.lastTradeId, lastUpdateId: this.matcher.lastUpdateId };
  }

  /**
   * Applies one command. Events are appended to `out` when given (so a batch can collect into one
   * array) and the array is returned.
   */
  execute(command: EngineCommand, out: EngineEvent[] = []): EngineEvent[] {
    switch (command.kind) {
      case 'PlaceOrder':
        this.place(command, out);
        break;
      case 'CancelOrder':
        // Cancels stay allowed in HALT and BREAK: taking risk off is always permitted.
        this.matcher.cancel(command.orderId, command.ts, out);
        break;
      case 'SetSymbolStatus':
        this.setStatus(command.status);
        out.push({ type: 'SymbolStatusChanged', status: command.status, ts: command.ts });
        break;
      default:
        return unknownCommand(command);
    }
    return out;
  }

  /** A copy of a resting order, or undefined. */
  findOrder(orderId: number): RestingOrder | undefined {
    const order = this.matcher.book.find(orderId);
    return order === undefined ? undefined : copyOrder(order);
  }

  /** The L2 view, best first, up to `limit` levels per side. */
  depth(limit: number = Number.MAX_SAFE_INTEGER): BookDepth {
    return { bids: this.matcher.book.depth('BUY', limit), asks: this.matcher.book.depth('SELL', limit) };
  }

  snapshot(): EngineSnapshot {
    const book = this.matcher.book;
    return {
      version: 1,
      status: this.status,
      lastTradeId: this.matcher.lastTradeId,
      lastUpdateId: this.matcher.lastUpdateId,
      bids: sideOrders(book, 'BUY'),
      asks: sideOrders(book, 'SELL'),
    };
  }

  /** sha256 (hex) of the canonical snapshot: equal hashes mean equal futures. */
  stateHash(): string {
    return snapshotHash(this.snapshot());
  }

  private place(command: BookPlaceOrder, out: EngineEvent[]): void {
    const reason = !isWellFormedOrder(command)
      ? 'INVALID_ORDER'
      : this.status !== 'TRADING'
        ? 'SYMBOL_NOT_TRADING'
        : undefined;
    if (reason === undefined) return this.matcher.place(command, out);
    out.push({ type: 'OrderRejected', orderId: command.orderId, ownerId: command.ownerId, reason, ts: command.ts });
  }

  private setStatus(status: SymbolStatus): void {
    switch (status) {
      case 'TRADING':
      case 'HALT':
      case 'BREAK':
        this.status = status;
        return;
      default:
        return unknownStatus(status);
    }
  }
}

function unknownCommand(command: never): never {
  throw new Error(`matching engine: unknown command ${JSON.stringify(command)}`);
}

function unknownStatus(status: never): never {
  throw new Error(`matching engine: unknown symbol status ${String(status)}`);
}
