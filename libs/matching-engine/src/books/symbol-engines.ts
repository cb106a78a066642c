import type { Markets, OrderCommand } from '@exchange/contracts';
import { partitionForKey } from '@exchange/messaging';
import { CommandOutput } from './command-output';
import { writeRejection } from './engine-event-translator';
import { SymbolBook } from './symbol-book';
import type { SymbolBookState } from './symbol-book-snapshot';
import { takerOf } from './to-book-place-order';

/**
 * Every configured book (spot symbols and contracts), and the routing of a command to its book. Symbols map to
 * order.commands partitions by the same murmur2 partitioner producers use, so the books of one
 * partition can be rebuilt from that partition alone.
 */
export class SymbolEngines {
  private readonly books = new Map<string, SymbolBook>();

  constructor(
    readonly markets: Markets,
    /** Partitions of order.commands. */
    readonly partitions: number,
    /** Size of each book's window of applied command ids (part of its state: keep it fixed). */
    private readonly recentCapacity: number,
  ) {
    for (const config of markets.books) this.books.set(config.symbol, SymbolBook.empty(config, recentCapacity));
  }

  get(symbol: string): SymbolBook | undefined {
    return this.books.get(symbol);
  }

  partitionOf(symbol: string): number {
    return partitionForKey(symbol, this.partitions);
  }

  /** The configured symbols whose commands arrive on `partition`. */
  symbolsOf(partition: number): string[] {
    return [...this.books.keys()].filter((symbol) => this.partitionOf(symbol) === partition);
  }

  booksOf(partition: number): SymbolBook[] {
    return this.symbolsOf(partition).map((symbol) => this.books.get(symbol)!);
  }

  /** Replaces a symbol's book with a restored one, or an empty one when `state` is undefined. */
  reset(symbol: string, state?: SymbolBookState): void {
    const config = this.markets.book(symbol);
    if (config === undefined) throw new Error(`symbol engines: unknown symbol ${symbol}`);
    this.books.set(
      symbol,
      state === undefined
        ? SymbolBook.empty(config, this.recentCapacity)
        : SymbolBook.restore(config, this.recentCapacity, state),
    );
  }

  /**
   * Decides one command; undefined when it was a repeat or needs no answer. A command for a symbol
   * we do not trade is refused (the ledger must still release an order's hold), never thrown.
   */
  apply(command: OrderCommand): CommandOutput | undefined {
    const book = this.books.get(command.payload.symbol);
    if (book !== undefined) return book.apply(command);
    const out = new CommandOutput(command.payload.symbol, command.id, command.ts);
    switch (command.type) {
      case 'SubmitOrder':
        writeRejection(takerOf(command), 'UNKNOWN_SYMBOL', out);
        return out;
      case 'CancelOrder': {
        const { orderId, accountId, userId } = command.payload;
        out.event('CancelRejected', { orderId, accountId, userId, reason: 'UNKNOWN_ORDER' });
        return out;
      }
      case 'SetSymbolStatus':
        return undefined;
      default:
        return unknownCommand(command);
    }
  }
}

function unknownCommand(command: never): never {
  throw new Error(`symbol engines: unknown command ${JSON.stringify(command)}`);
}
