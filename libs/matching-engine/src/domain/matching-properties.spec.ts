import type { EngineCommand } from './engine-commands';
import type { EngineEvent } from './engine-events';
import { FastOrderBook } from './fast-order-book';
import { MatchingEngine } from './matching-engine';
import type { OrderBook } from './order-book';
import { ReferenceOrderBook } from './reference-order-book';
import { bookViolations } from './testing/book-invariants';
import { randomCommands } from './testing/random-commands';
import { SeededRandom } from './testing/seeded-random';

const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
const COMMANDS = 1_200;

interface Played {
  engine: MatchingEngine;
  /** The events of each command, by command index. */
  events: EngineEvent[][];
}

function play(commands: readonly EngineCommand[], engine: MatchingEngine, afterEach?: (index: number) => void): Played {
  const events = commands.map((command, i) => {
    const produced = engine.execute(command);
    afterEach?.(i);
    return produced;
  });
  return { engine, events };
}

/** Expects two event streams to be identical, reporting the first differing command with a readable diff. */
function expectSameEvents(actual: EngineEvent[][], expected: EngineEvent[][], offset = 0): void {
  expect(actual.length).toBe(expected.length);
  const first = actual.findIndex((events, i) => JSON.stringify(events) !== JSON.stringify(expected[i]));
  if (first !== -1)
    expect({ command: first + offset, events: actual[first] }).toEqual({
      command: first + offset,
      events: expected[first],
    });
}

describe('matching properties over seeded random command streams', () => {
  it("the fast book produces exactly the reference book's events, and neither book is ever crossed or inconsistent", () => {
    for (const seed of SEEDS) {
      const commands = randomCommands(seed, COMMANDS);
      const books: OrderBook[] = [new ReferenceOrderBook(), new FastOrderBook()];
      const [reference, fast] = books.map((book) =>
        play(commands, new MatchingEngine({ book }), (i) => {
          const bid = book.best('BUY')?.priceTicks ?? -Infinity;
          const ask = book.best('SELL')?.priceTicks ?? Infinity;
          if (bid >= ask) throw new Error(`seed ${seed}: crossed after command ${i}: ${bid} >= ${ask}`);
          if (i % 25 === 0) expect({ seed, i, violations: bookViolations(book) }).toEqual({ seed, i, violations: [] });
        }),
      );
      expectSameEvents(fast!.events, reference!.events);
      expect(fast!.engine.stateHash()).toBe(reference!.engine.stateHash());
    }
  });

  it("conserves every order's quantity: filled + resting + canceled = ordered, spent + unspent = budget", () => {
    for (const seed of SEEDS) {
      const { engine, events } = play(randomCommands(seed, COMMANDS), new MatchingEngine());
      expect({ seed, violations: conservationViolations(events, engine) }).toEqual({ seed, violations: [] });
    }
  });

  it('gives every accepted order exactly one closing event in the command that placed it', () => {
    for (const seed of SEEDS) {
      const { events } = play(randomCommands(seed, COMMANDS), new MatchingEngine());
      const broken = events.filter((produced) => {
        const accepted = produced.flatMap((e) => (e.type === 'OrderAccepted' ? [e.orderId] : []));
        const closing = produced.flatMap((e) =>
          e.type === 'OrderRested' || e.type === 'OrderFilled' || (e.type === 'OrderCanceled' && e.reason !== 'USER')
            ? [e.orderId]
            : [],
        );
        return closing.join() !== accepted.join() || (accepted.length > 0 && produced[0]?.type !== 'OrderAccepted');
      });
      expect({ seed, broken }).toEqual({ seed, broken: [] });
    }
  });

  it('exercises every outcome (so the properties above are not vacuous)', () => {
    const outcomes = new Set<string>();
    for (const seed of SEEDS.slice(0, 6)) {
      for (const e of play(randomCommands(seed, COMMANDS), new MatchingEngine()).events.flat()) {
        if (e.type === 'OrderCanceled') outcomes.add(`canceled:${e.reason}`);
        else if (e.type === 'OrderRejected' || e.type === 'CancelRejected') outcomes.add(`rejected:${e.reason}`);
        else if (e.type === 'OrderFilled' && e.unspentQuote > 0) outcomes.add('filled:with-unspent-quote');
        else outcomes.add(e.type);
      }
    }
    expect([...outcomes].sort()).toEqual([
      'DepthChanged',
      'OrderAccepted',
      'OrderFilled',
      'OrderRested',
      'SymbolStatusChanged',
      'TradeExecuted',
      'canceled:FOK_NOT_FILLABLE',
      'canceled:IOC_REMAINDER',
      'canceled:MARKET_NO_LIQUIDITY',
      'canceled:SELF_TRADE_PREVENTION',
      'canceled:USER',
      'filled:with-unspent-quote',
      'rejected:DUPLICATE_ORDER_ID',
      'rejected:INVALID_ORDER',
      'rejected:LIMIT_MAKER_WOULD_TAKE',
      'rejected:SYMBOL_NOT_TRADING',
      'rejected:UNKNOWN_ORDER',
    ]);
  });

  it('numbers trades and L2 updates 1, 2, 3, … without gaps', () => {
    for (const seed of SEEDS.slice(0, 6)) {
      const all = play(randomCommands(seed, COMMANDS), new MatchingEngine()).events.flat();
      const tradeIds = all.flatMap((e) => (e.type === 'TradeExecuted' ? [e.tradeId] : []));
      const updateIds = all.flatMap((e) => (e.type === 'DepthChanged' ? [e.updateId] : []));
      expect(tradeIds).toEqual(tradeIds.map((_, i) => i + 1));
      expect(updateIds).toEqual(updateIds.map((_, i) => i + 1));
    }
  });

  it('restores from a JSON snapshot taken mid-stream to the same events and state hash as the run that never stopped', () => {
    for (const seed of SEEDS) {
      const commands = randomCommands(seed, COMMANDS);
      const cut = new SeededRandom(seed * 31).int(1, COMMANDS - 1);
      const whole = play(commands, new MatchingEngine());
      const first = play(commands.slice(0, cut), new MatchingEngine());
      const snapshot = JSON.parse(JSON.stringify(first.engine.snapshot())) as ReturnType<MatchingEngine['snapshot']>;
      for (const book of [new FastOrderBook(), new ReferenceOrderBook()]) {
        const restored = MatchingEngine.restore(snapshot, book);
        expect(restored.stateHash()).toBe(first.engine.stateHash());
        const rest = play(commands.slice(cut), restored);
        expectSameEvents(rest.events, whole.events.slice(cut), cut);
        expect(restored.stateHash()).toBe(whole.engine.stateHash());
      }
    }
  });
});

interface OrderTally {
  ordered: number;
  filled: number;
  canceled: number;
  budget: number;
  spent: number;
  unspent: number;
}

/** Folds the events into a tally per accepted order and checks each balances. */
function conservationViolations(events: EngineEvent[][], engine: MatchingEngine): string[] {
  const live = new Map<number, OrderTally>();
  const done: [number, OrderTally][] = [];
  for (const e of events.flat()) {
    switch (e.type) {
      case 'OrderAccepted': {
        const previous = live.get(e.orderId);
        if (previous !== undefined) done.push([e.orderId, previous]);
        live.set(e.orderId, {
          ordered: e.qtyLots,
          filled: 0,
          canceled: 0,
          budget: e.quoteBudget,
          spent: 0,
          unspent: 0,
        });
        break;
      }
      case 'TradeExecuted':
        live.get(e.makerOrderId)!.filled += e.qtyLots;
        live.get(e.takerOrderId)!.filled += e.qtyLots;
        live.get(e.takerOrderId)!.spent += e.priceTicks * e.qtyLots;
        break;
      case 'OrderCanceled':
        live.get(e.orderId)!.canceled += e.remainingLots;
        live.get(e.orderId)!.unspent += e.unspentQuote;
        break;
      case 'OrderFilled':
        live.get(e.orderId)!.unspent += e.unspentQuote;
        break;
      default:
        break;
    }
  }
  const violations: string[] = [];
  for (const [orderId, tally] of [...done, ...live.entries()]) {
    const resting = live.get(orderId) === tally ? (engine.findOrder(orderId)?.lots ?? 0) : 0;
    if (tally.budget > 0) {
      if (tally.spent + tally.unspent !== tally.budget || tally.canceled !== 0 || resting !== 0)
        violations.push(`market buy ${orderId}: ${JSON.stringify(tally)}`);
    } else if (tally.filled + resting + tally.canceled !== tally.ordered) {
      violations.push(`order ${orderId}: ${JSON.stringify({ ...tally, resting })}`);
    }
  }
  return violations;
}
