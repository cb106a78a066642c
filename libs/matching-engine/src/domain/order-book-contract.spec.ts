import { FastOrderBook } from './fast-order-book';
import { copyOrder, type DepthLevel, type OrderBook, type Side } from './order-book';
import { ReferenceOrderBook } from './reference-order-book';
import { bookViolations, fullDepth } from './testing/book-invariants';
import { SeededRandom } from './testing/seeded-random';

type Step =
  | { add: [orderId: number, ownerId: number, side: Side, priceTicks: number, lots: number] }
  | { remove: number; removed?: [orderId: number, lots: number] | null }
  | { fillBest: [side: Side, lots: number] };

interface Expected {
  bids: DepthLevel[];
  asks: DepthLevel[];
  /** The best order id per side after the step (null: side empty). */
  best?: [bid: number | null, ask: number | null];
}

function apply(book: OrderBook, step: Step): void {
  if ('add' in step) book.add(...step.add);
  else if ('fillBest' in step) book.fillBest(...step.fillBest);
  else {
    const removed = book.remove(step.remove);
    if (step.removed !== undefined)
      expect(removed === undefined ? null : [removed.orderId, removed.lots]).toEqual(step.removed);
  }
}

/** The scripted walk: each step with the whole L2 book expected after it. */
const script: [Step, Expected][] = [
  [{ add: [1, 11, 'BUY', 100, 5] }, { bids: [[100, 5]], asks: [], best: [1, null] }],
  [
    { add: [2, 12, 'BUY', 99, 3] },
    {
      bids: [
        [100, 5],
        [99, 3],
      ],
      asks: [],
      best: [1, null],
    },
  ],
  [
    { add: [3, 13, 'BUY', 100, 2] },
    {
      bids: [
        [100, 7],
        [99, 3],
      ],
      asks: [],
      best: [1, null],
    },
  ],
  [
    { add: [4, 14, 'BUY', 101, 1] },
    {
      bids: [
        [101, 1],
        [100, 7],
        [99, 3],
      ],
      asks: [],
      best: [4, null],
    },
  ],
  [
    { add: [5, 15, 'SELL', 105, 4] },
    {
      bids: [
        [101, 1],
        [100, 7],
        [99, 3],
      ],
      asks: [[105, 4]],
      best: [4, 5],
    },
  ],
  [
    { add: [6, 16, 'SELL', 103, 6] },
    {
      bids: [
        [101, 1],
        [100, 7],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [4, 6],
    },
  ],
  [
    { add: [7, 17, 'SELL', 104, 2] },
    {
      bids: [
        [101, 1],
        [100, 7],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [104, 2],
        [105, 4],
      ],
      best: [4, 6],
    },
  ],
  [
    { fillBest: ['BUY', 1] },
    {
      bids: [
        [100, 7],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [104, 2],
        [105, 4],
      ],
      best: [1, 6],
    },
  ],
  [
    { fillBest: ['BUY', 2] },
    {
      bids: [
        [100, 5],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [104, 2],
        [105, 4],
      ],
      best: [1, 6],
    },
  ],
  [
    { fillBest: ['BUY', 3] },
    {
      bids: [
        [100, 2],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [104, 2],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { remove: 7, removed: [7, 2] },
    {
      bids: [
        [100, 2],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { remove: 7, removed: null },
    {
      bids: [
        [100, 2],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { add: [8, 18, 'BUY', 100, 4] },
    {
      bids: [
        [100, 6],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { add: [9, 19, 'BUY', 100, 1] },
    {
      bids: [
        [100, 7],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { remove: 8, removed: [8, 4] },
    {
      bids: [
        [100, 3],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [3, 6],
    },
  ],
  [
    { remove: 3, removed: [3, 2] },
    {
      bids: [
        [100, 1],
        [99, 3],
      ],
      asks: [
        [103, 6],
        [105, 4],
      ],
      best: [9, 6],
    },
  ],
  [
    { fillBest: ['SELL', 6] },
    {
      bids: [
        [100, 1],
        [99, 3],
      ],
      asks: [[105, 4]],
      best: [9, 5],
    },
  ],
  [
    { remove: 9, removed: [9, 1] },
    { bids: [[99, 3]], asks: [[105, 4]], best: [2, 5] },
  ],
  [{ remove: 2 }, { bids: [], asks: [[105, 4]], best: [null, 5] }],
  [{ remove: 5 }, { bids: [], asks: [], best: [null, null] }],
];

describe.each([
  ['reference', (): OrderBook => new ReferenceOrderBook()],
  ['fast', (): OrderBook => new FastOrderBook()],
])('order book contract: %s', (_name, newBook) => {
  it('starts empty', () => {
    const book = newBook();
    expect(fullDepth(book)).toEqual({ bids: [], asks: [] });
    expect([book.best('BUY'), book.best('SELL'), book.orderCount]).toEqual([undefined, undefined, 0]);
    expect(bookViolations(book)).toEqual([]);
  });

  it('follows the script, with the whole L2 book and the invariants right after every step', () => {
    const book = newBook();
    script.forEach(([step, expected], i) => {
      apply(book, step);
      expect({ step: i, ...fullDepth(book) }).toEqual({ step: i, bids: expected.bids, asks: expected.asks });
      if (expected.best)
        expect([book.best('BUY')?.orderId ?? null, book.best('SELL')?.orderId ?? null]).toEqual(expected.best);
      expect(bookViolations(book)).toEqual([]);
    });
  });

  it('keeps time priority within a level, also for orders added after a removal', () => {
    const book = newBook();
    [1, 2, 3].forEach((id) => book.add(id, id, 'SELL', 50, 1));
    book.remove(2);
    book.add(4, 4, 'SELL', 50, 1);
    const ids: number[] = [];
    book.scan('SELL', (o) => ids.push(o.orderId) > 0);
    expect(ids).toEqual([1, 3, 4]);
    book.fillBest('SELL', 1);
    expect(book.best('SELL')?.orderId).toBe(3);
  });

  it('finds a resting order with its remaining lots, and forgets it once gone', () => {
    const book = newBook();
    book.add(7, 70, 'BUY', 10, 9);
    book.fillBest('BUY', 4);
    expect(copyOrder(book.find(7)!)).toEqual({ orderId: 7, ownerId: 70, side: 'BUY', priceTicks: 10, lots: 5 });
    book.fillBest('BUY', 5);
    expect([book.find(7), book.orderCount, book.levelLots('BUY', 10)]).toEqual([undefined, 0, 0]);
  });

  it('cuts depth at the limit and stops a scan when told to', () => {
    const book = newBook();
    for (let i = 0; i < 5; i++) book.add(i + 1, 1, 'SELL', 100 + i, i + 1);
    expect(book.depth('SELL', 2)).toEqual([
      [100, 1],
      [101, 2],
    ]);
    expect(book.depth('SELL', 0)).toEqual([]);
    let visited = 0;
    book.scan('SELL', () => ++visited < 3);
    expect(visited).toBe(3);
  });

  it('refuses to fill more than the best order holds, or from an empty side', () => {
    const book = newBook();
    book.add(1, 1, 'BUY', 10, 2);
    expect(() => book.fillBest('BUY', 3)).toThrow(RangeError);
    expect(() => book.fillBest('SELL', 1)).toThrow(RangeError);
    expect(fullDepth(book)).toEqual({ bids: [[10, 2]], asks: [] });
  });

  it('agrees with a plain model over a seeded random walk, invariants holding after every step', () => {
    const book = newBook();
    const model = new Map<number, { side: Side; priceTicks: number; lots: number }>();
    const random = new SeededRandom(7);
    for (let i = 1; i <= 1500; i++) {
      randomBookStep(book, model, random, i);
      const [actual, expected] = [fullDepth(book), modelDepth(model)];
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        expect({ step: i, ...actual }).toEqual({ step: i, ...expected });
      const violations = bookViolations(book);
      if (violations.length > 0) expect({ step: i, violations }).toEqual({ step: i, violations: [] });
    }
  });
});

/** One add, remove or fill; bids stay below 100 and asks above, so the walk never crosses. */
function randomBookStep(
  book: OrderBook,
  model: Map<number, { side: Side; priceTicks: number; lots: number }>,
  random: SeededRandom,
  id: number,
): void {
  const roll = random.next();
  const ids = [...model.keys()];
  if (roll < 0.5 || ids.length === 0) {
    const side: Side = random.chance(0.5) ? 'BUY' : 'SELL';
    const priceTicks = side === 'BUY' ? random.int(80, 99) : random.int(101, 120);
    const lots = random.int(1, 9);
    book.add(id, random.int(1, 5), side, priceTicks, lots);
    model.set(id, { side, priceTicks, lots });
  } else if (roll < 0.75) {
    const victim = random.pick(ids);
    const removed = book.remove(victim)?.lots;
    if (removed !== model.get(victim)!.lots)
      throw new Error(`remove(${victim}) gave ${removed} lots, the model holds ${model.get(victim)!.lots}`);
    model.delete(victim);
  } else {
    const side: Side = random.chance(0.5) ? 'BUY' : 'SELL';
    const best = book.best(side);
    if (best === undefined) return;
    const lots = random.int(1, best.lots);
    const bestId = best.orderId;
    book.fillBest(side, lots);
    const entry = model.get(bestId)!;
    entry.lots -= lots;
    if (entry.lots === 0) model.delete(bestId);
  }
}

function modelDepth(model: Map<number, { side: Side; priceTicks: number; lots: number }>): {
  bids: DepthLevel[];
  asks: DepthLevel[];
} {
  const totals = (side: Side): DepthLevel[] => {
    const byPrice = new Map<number, number>();
    for (const o of model.values())
      if (o.side === side) byPrice.set(o.priceTicks, (byPrice.get(o.priceTicks) ?? 0) + o.lots);
    return [...byPrice.entries()].sort((a, b) => (side === 'BUY' ? b[0] - a[0] : a[0] - b[0]));
  };
  return { bids: totals('BUY'), asks: totals('SELL') };
}
