import { createHash } from 'node:crypto';
import type { BookConfig, CancelOrder, OrderCommand, SetSymbolStatus, SubmitOrder } from '@exchange/contracts';
import { MatchingEngine } from '../domain';
import { CommandOutput } from './command-output';
import { EngineEventTranslator, type OrderRef, writeRejection } from './engine-event-translator';
import { RecentCommandIds } from './recent-command-ids';
import type { SymbolBookState } from './symbol-book-snapshot';
import { toBookPlaceOrder } from './to-book-place-order';
import { SymbolUnits } from './symbol-units';

/**
 * One symbol at the engine's boundary: the pure MatchingEngine in ticks and lots, plus what the
 * contracts need and the engine does not keep (each resting order's user and client order id),
 * plus the window of applied command ids. `apply` is a deterministic fold step: same state and
 * command, same output, and no clock, offset or randomness is read.
 */
export class SymbolBook {
  readonly units: SymbolUnits;
  private readonly refs: Map<number, OrderRef>;
  private readonly recent: RecentCommandIds;
  private readonly translator: EngineEventTranslator;
  private lastTs: number;

  private constructor(
    readonly config: Omit<BookConfig, 'kind'>,
    private readonly engine: MatchingEngine,
    recentCapacity: number,
    state?: SymbolBookState,
  ) {
    this.units = new SymbolUnits(config.tickSize, config.stepSize);
    this.refs = new Map(
      (state?.orders ?? []).map(([orderId, userId, clientOrderId]) => [orderId, { userId, clientOrderId }]),
    );
    this.recent = new RecentCommandIds(recentCapacity, state?.recentCommandIds);
    this.translator = new EngineEventTranslator(this.units, this.refs);
    this.lastTs = state?.ts ?? 0;
    if (this.refs.size !== engine.orderCount)
      throw new Error(
        `symbol book ${config.symbol}: snapshot names ${this.refs.size} orders, the book holds ${engine.orderCount}`,
      );
  }

  /** A fresh book in the symbol's configured initial status. */
  static empty(config: Omit<BookConfig, 'kind'>, recentCapacity: number): SymbolBook {
    return new SymbolBook(config, new MatchingEngine({ status: config.status }), recentCapacity);
  }

  static restore(config: Omit<BookConfig, 'kind'>, recentCapacity: number, state: SymbolBookState): SymbolBook {
    return new SymbolBook(config, MatchingEngine.restore(state.engine), recentCapacity, state);
  }

  get symbol(): string {
    return this.config.symbol;
  }

  /** The command's messages, or undefined when the command id was applied already. */
  apply(command: OrderCommand): CommandOutput | undefined {
    if (this.recent.has(command.id)) return undefined;
    this.recent.add(command.id);
    this.lastTs = command.ts;
    const out = new CommandOutput(this.symbol, command.id, command.ts);
    switch (command.type) {
      case 'SubmitOrder':
        this.submit(command, out);
        break;
      case 'CancelOrder':
        this.cancel(command, out);
        break;
      case 'SetSymbolStatus':
        this.setStatus(command, out);
        break;
      default:
        unknownCommand(command);
    }
    return out;
  }

  state(): SymbolBookState {
    const orders: [number, string, string][] = [...this.refs].map(([orderId, ref]) => [
      orderId,
      ref.userId,
      ref.clientOrderId,
    ]);
    return { ts: this.lastTs, engine: this.engine.snapshot(), orders, recentCommandIds: this.recent.toArray() };
  }

  /** The engine's own state hash: equal hashes, equal books and sequences. */
  engineStateHash(): string {
    return this.engine.stateHash();
  }

  /** sha256 over everything the book's future depends on, the refs and dedupe window included. */
  stateHash(): string {
    const { engine: _engine, ...rest } = this.state();
    return createHash('sha256').update(this.engine.stateHash()).update(JSON.stringify(rest)).digest('hex');
  }

  private submit(command: SubmitOrder, out: CommandOutput): void {
    const converted = toBookPlaceOrder(command, this.units);
    if (!converted.ok) return writeRejection(converted.taker, converted.reason, out);
    this.translator.translate(this.engine.execute(converted.command), converted.taker, out);
  }

  /** Only the owning account may cancel; to anyone else the order does not exist. */
  private cancel(command: CancelOrder, out: CommandOutput): void {
    const { orderId, accountId, userId } = command.payload;
    const id = Number(orderId);
    const resting = this.engine.findOrder(id);
    if (resting === undefined || String(resting.ownerId) !== accountId) {
      out.event('CancelRejected', { orderId, accountId, userId, reason: 'UNKNOWN_ORDER' });
      return;
    }
    this.translator.translate(
      this.engine.execute({ kind: 'CancelOrder', orderId: id, ts: command.ts }),
      undefined,
      out,
    );
  }

  private setStatus(command: SetSymbolStatus, out: CommandOutput): void {
    this.translator.translate(
      this.engine.execute({ kind: 'SetSymbolStatus', status: command.payload.status, ts: command.ts }),
      undefined,
      out,
    );
  }
}

function unknownCommand(command: never): never {
  throw new Error(`symbol book: unknown command ${JSON.stringify(command)}`);
}
