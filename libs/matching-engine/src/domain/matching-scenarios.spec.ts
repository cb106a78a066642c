import type { EngineCommand, BookPlaceOrder } from './engine-commands';
import type { EngineEvent } from './engine-events';
import { FastOrderBook } from './fast-order-book';
import { type BookDepth, MatchingEngine } from './matching-engine';
import type { OrderBook } from './order-book';
import { ReferenceOrderBook } from './reference-order-book';
import { bookViolations } from './testing/book-invariants';
import {
  accepted,
  cancel,
  canceled,
  depthChanged,
  filled,
  limit,
  limitMaker,
  marketBuy,
  marketSell,
  rejected,
  rested,
  setStatus,
  trade,
  WHEN,
} from './testing/engine-fixtures';

interface Scenario {
  given: EngineCommand[];
  when: EngineCommand;
  then: EngineEvent[];
  /** The whole L2 book after `when`. */
  book: BookDepth;
}

const at = <C extends EngineCommand>(command: C): C => ({ ...command, ts: WHEN });
const taker = (c: BookPlaceOrder): [number, number, BookPlaceOrder['side']] => [c.orderId, c.ownerId, c.side];

const buy12At102 = at(limit(10, 9, 'BUY', 102, 12));
const fok11 = at(limit(10, 9, 'BUY', 102, 11, 'FOK'));
const fok10 = at(limit(10, 9, 'BUY', 102, 10, 'FOK'));
const fok6 = at(limit(10, 9, 'BUY', 102, 6, 'FOK'));
const ioc8 = at(limit(10, 9, 'BUY', 102, 8, 'IOC'));
const makerRests = at(limitMaker(10, 9, 'BUY', 100, 2));
const budget954 = at(marketBuy(10, 9, 954));
const budget500 = at(marketBuy(10, 9, 500));
const budget99 = at(marketBuy(10, 9, 99));
const sell10 = at(marketSell(10, 9, 10));
const ownBuy = at(limit(10, 9, 'BUY', 101, 10));
const buy3 = at(limit(10, 9, 'BUY', 101, 3));
const buy2 = at(limit(11, 9, 'BUY', 101, 2));
const sellThrough = at(limit(10, 9, 'SELL', 97, 3));
const placeWhileHalted = at(limit(10, 9, 'BUY', 101, 1));
const asks = (...levels: [number, number][]): BookDepth => ({ bids: [], asks: levels });

const scenarios: Record<string, Scenario> = {
  "a LIMIT fills partly across levels at the makers' prices and rests the rest": {
    given: [limit(1, 1, 'SELL', 101, 5), limit(2, 2, 'SELL', 102, 5), limit(3, 3, 'SELL', 103, 5)],
    when: buy12At102,
    then: [
      accepted(buy12At102),
      trade(1, taker(buy12At102), [1, 1], 101, 5, { maker: 0, taker: 7 }),
      depthChanged(4, 'SELL', 101, 0),
      trade(2, taker(buy12At102), [2, 2], 102, 5, { maker: 0, taker: 2 }),
      depthChanged(5, 'SELL', 102, 0),
      rested(10, 9, 'BUY', 102, 2),
      depthChanged(6, 'BUY', 102, 2),
    ],
    book: { bids: [[102, 2]], asks: [[103, 5]] },
  },
  'a SELL LIMIT trades at the better prices of the bids it reaches': {
    given: [limit(1, 1, 'BUY', 99, 2), limit(2, 2, 'BUY', 98, 2)],
    when: sellThrough,
    then: [
      accepted(sellThrough),
      trade(1, taker(sellThrough), [1, 1], 99, 2, { maker: 0, taker: 1 }),
      depthChanged(3, 'BUY', 99, 0),
      trade(2, taker(sellThrough), [2, 2], 98, 1, { maker: 1, taker: 0 }),
      depthChanged(4, 'BUY', 98, 1),
      filled(10, 9, 'SELL'),
    ],
    book: { bids: [[98, 1]], asks: [] },
  },
  'a FOK that cannot fill completely trades nothing': {
    given: [limit(1, 1, 'SELL', 101, 5), limit(2, 2, 'SELL', 102, 5)],
    when: fok11,
    then: [accepted(fok11), canceled(10, 9, 'BUY', 11, 'FOK_NOT_FILLABLE')],
    book: asks([101, 5], [102, 5]),
  },
  'a FOK that can fill completely does': {
    given: [limit(1, 1, 'SELL', 101, 5), limit(2, 2, 'SELL', 102, 5)],
    when: fok10,
    then: [
      accepted(fok10),
      trade(1, taker(fok10), [1, 1], 101, 5, { maker: 0, taker: 5 }),
      depthChanged(3, 'SELL', 101, 0),
      trade(2, taker(fok10), [2, 2], 102, 5, { maker: 0, taker: 0 }),
      depthChanged(4, 'SELL', 102, 0),
      filled(10, 9, 'BUY'),
    ],
    book: { bids: [], asks: [] },
  },
  "a FOK counts only the liquidity ahead of its owner's own resting order": {
    given: [limit(1, 1, 'SELL', 101, 5), limit(2, 9, 'SELL', 101, 5), limit(3, 3, 'SELL', 102, 5)],
    when: fok6,
    then: [accepted(fok6), canceled(10, 9, 'BUY', 6, 'FOK_NOT_FILLABLE')],
    book: asks([101, 10], [102, 5]),
  },
  'an IOC fills what it can and cancels the remainder': {
    given: [limit(1, 1, 'SELL', 101, 5)],
    when: ioc8,
    then: [
      accepted(ioc8),
      trade(1, taker(ioc8), [1, 1], 101, 5, { maker: 0, taker: 3 }),
      depthChanged(2, 'SELL', 101, 0),
      canceled(10, 9, 'BUY', 3, 'IOC_REMAINDER'),
    ],
    book: { bids: [], asks: [] },
  },
  'a LIMIT_MAKER that would take is rejected': {
    given: [limit(1, 1, 'SELL', 101, 5)],
    when: at(limitMaker(10, 9, 'BUY', 101, 2)),
    then: [rejected(10, 9, 'LIMIT_MAKER_WOULD_TAKE')],
    book: asks([101, 5]),
  },
  'a LIMIT_MAKER that would not take rests': {
    given: [limit(1, 1, 'SELL', 101, 5)],
    when: makerRests,
    then: [accepted(makerRests), rested(10, 9, 'BUY', 100, 2), depthChanged(2, 'BUY', 100, 2)],
    book: { bids: [[100, 2]], asks: [[101, 5]] },
  },
  'a MARKET BUY spends its quote budget, buying whole lots per level, and releases the unspent quote': {
    given: [limit(1, 1, 'SELL', 100, 3), limit(2, 2, 'SELL', 101, 4), limit(3, 3, 'SELL', 103, 5)],
    when: budget954,
    then: [
      accepted(budget954),
      trade(1, taker(budget954), [1, 1], 100, 3, { maker: 0, taker: 0, quote: 654 }),
      depthChanged(4, 'SELL', 100, 0),
      trade(2, taker(budget954), [2, 2], 101, 4, { maker: 0, taker: 0, quote: 250 }),
      depthChanged(5, 'SELL', 101, 0),
      trade(3, taker(budget954), [3, 3], 103, 2, { maker: 3, taker: 0, quote: 44 }),
      depthChanged(6, 'SELL', 103, 3),
      filled(10, 9, 'BUY', 44),
    ],
    book: asks([103, 3]),
  },
  'a MARKET BUY with more budget than the book holds cancels with the unspent quote': {
    given: [limit(1, 1, 'SELL', 100, 2)],
    when: budget500,
    then: [
      accepted(budget500),
      trade(1, taker(budget500), [1, 1], 100, 2, { maker: 0, taker: 0, quote: 300 }),
      depthChanged(2, 'SELL', 100, 0),
      canceled(10, 9, 'BUY', 0, 'MARKET_NO_LIQUIDITY', 300),
    ],
    book: { bids: [], asks: [] },
  },
  'a MARKET BUY whose budget buys not one lot trades nothing': {
    given: [limit(1, 1, 'SELL', 100, 2)],
    when: budget99,
    then: [accepted(budget99), canceled(10, 9, 'BUY', 0, 'MARKET_NO_LIQUIDITY', 99)],
    book: asks([100, 2]),
  },
  'a MARKET SELL larger than the bids cancels its remainder': {
    given: [limit(1, 1, 'BUY', 99, 3), limit(2, 2, 'BUY', 98, 2)],
    when: sell10,
    then: [
      accepted(sell10),
      trade(1, taker(sell10), [1, 1], 99, 3, { maker: 0, taker: 7 }),
      depthChanged(3, 'BUY', 99, 0),
      trade(2, taker(sell10), [2, 2], 98, 2, { maker: 0, taker: 5 }),
      depthChanged(4, 'BUY', 98, 0),
      canceled(10, 9, 'SELL', 5, 'MARKET_NO_LIQUIDITY'),
    ],
    book: { bids: [], asks: [] },
  },
  "self-trade prevention cancels the taker at its owner's first resting order, which stays": {
    given: [limit(1, 1, 'SELL', 101, 2), limit(2, 9, 'SELL', 101, 3), limit(3, 3, 'SELL', 101, 4)],
    when: ownBuy,
    then: [
      accepted(ownBuy),
      trade(1, taker(ownBuy), [1, 1], 101, 2, { maker: 0, taker: 8 }),
      depthChanged(4, 'SELL', 101, 7),
      canceled(10, 9, 'BUY', 8, 'SELF_TRADE_PREVENTION'),
    ],
    book: asks([101, 7]),
  },
  'a partly filled order cancels with what is left of it': {
    given: [limit(1, 1, 'SELL', 101, 10), limit(2, 2, 'BUY', 101, 4)],
    when: at(cancel(1)),
    then: [canceled(1, 1, 'SELL', 6, 'USER'), depthChanged(3, 'SELL', 101, 0)],
    book: { bids: [], asks: [] },
  },
  'a status change is recorded': {
    given: [],
    when: at(setStatus('HALT')),
    then: [{ type: 'SymbolStatusChanged', status: 'HALT', ts: WHEN }],
    book: { bids: [], asks: [] },
  },
  'in HALT a cancel still works': {
    given: [limit(1, 1, 'SELL', 101, 5), setStatus('HALT')],
    when: at(cancel(1)),
    then: [canceled(1, 1, 'SELL', 5, 'USER'), depthChanged(2, 'SELL', 101, 0)],
    book: { bids: [], asks: [] },
  },
  'in HALT a new order is refused': {
    given: [limit(1, 1, 'SELL', 101, 5), setStatus('HALT')],
    when: placeWhileHalted,
    then: [rejected(10, 9, 'SYMBOL_NOT_TRADING')],
    book: asks([101, 5]),
  },
  'in BREAK a new order is refused': {
    given: [limit(1, 1, 'SELL', 101, 5), setStatus('BREAK')],
    when: placeWhileHalted,
    then: [rejected(10, 9, 'SYMBOL_NOT_TRADING')],
    book: asks([101, 5]),
  },
  'back in TRADING orders match again': {
    given: [limit(1, 1, 'SELL', 101, 5), setStatus('HALT'), setStatus('TRADING')],
    when: placeWhileHalted,
    then: [
      accepted(placeWhileHalted),
      trade(1, taker(placeWhileHalted), [1, 1], 101, 1, { maker: 4, taker: 0 }),
      depthChanged(2, 'SELL', 101, 4),
      filled(10, 9, 'BUY'),
    ],
    book: asks([101, 4]),
  },
  'orders at one price fill oldest first': {
    given: [limit(1, 1, 'SELL', 101, 2), limit(2, 2, 'SELL', 101, 2), limit(3, 3, 'SELL', 101, 2)],
    when: buy3,
    then: [
      accepted(buy3),
      trade(1, taker(buy3), [1, 1], 101, 2, { maker: 0, taker: 1 }),
      trade(2, taker(buy3), [2, 2], 101, 1, { maker: 1, taker: 0 }),
      depthChanged(4, 'SELL', 101, 3),
      filled(10, 9, 'BUY'),
    ],
    book: asks([101, 3]),
  },
  'a partly filled maker keeps its place in the queue': {
    given: [
      limit(1, 1, 'SELL', 101, 2),
      limit(2, 2, 'SELL', 101, 2),
      limit(3, 3, 'SELL', 101, 2),
      limit(10, 9, 'BUY', 101, 3),
    ],
    when: buy2,
    then: [
      accepted(buy2),
      trade(3, taker(buy2), [2, 2], 101, 1, { maker: 0, taker: 1 }),
      trade(4, taker(buy2), [3, 3], 101, 1, { maker: 1, taker: 0 }),
      depthChanged(5, 'SELL', 101, 1),
      filled(11, 9, 'BUY'),
    ],
    book: asks([101, 1]),
  },
  'an order id that is already resting is rejected': {
    given: [limit(1, 1, 'SELL', 101, 5)],
    when: at(limit(1, 2, 'BUY', 99, 1)),
    then: [rejected(1, 2, 'DUPLICATE_ORDER_ID')],
    book: asks([101, 5]),
  },
  'a cancel of a filled order is rejected': {
    given: [limit(1, 1, 'SELL', 101, 5), limit(2, 2, 'BUY', 101, 5)],
    when: at(cancel(1)),
    then: [{ type: 'CancelRejected', orderId: 1, reason: 'UNKNOWN_ORDER', ts: WHEN }],
    book: { bids: [], asks: [] },
  },
  'a cancel of an order never seen is rejected': {
    given: [],
    when: at(cancel(42)),
    then: [{ type: 'CancelRejected', orderId: 42, reason: 'UNKNOWN_ORDER', ts: WHEN }],
    book: { bids: [], asks: [] },
  },
};

const invalidOrders: Record<string, BookPlaceOrder> = {
  'a LIMIT without a price': { ...limit(10, 9, 'BUY', 1, 1), priceTicks: undefined },
  'zero lots': limit(10, 9, 'BUY', 100, 0),
  'a fractional price': limit(10, 9, 'BUY', 100.5, 1),
  'a price beyond safe integers': limit(10, 9, 'BUY', 2 ** 53, 1),
  'a MARKET BUY sized in lots': { ...marketSell(10, 9, 3), side: 'BUY' },
  'a MARKET SELL sized by quote': { ...marketBuy(10, 9, 300), side: 'SELL' },
  'an order id of zero': limit(0, 9, 'BUY', 100, 1),
  'an unknown time in force': { ...limit(10, 9, 'BUY', 100, 1), timeInForce: 'GTD' as BookPlaceOrder['timeInForce'] },
};

describe.each([
  ['reference', (): OrderBook => new ReferenceOrderBook()],
  ['fast', (): OrderBook => new FastOrderBook()],
])('matching on the %s book', (_name, newBook) => {
  /** Given the commands, when one more arrives, then exactly these events and this book; invariants after every step. */
  function run(given: EngineCommand[], when: EngineCommand): { events: EngineEvent[]; engine: MatchingEngine } {
    const book = newBook();
    const engine = new MatchingEngine({ book });
    for (const command of given) {
      engine.execute(command);
      expect(bookViolations(book)).toEqual([]);
    }
    const events = engine.execute(when);
    expect(bookViolations(book)).toEqual([]);
    return { events, engine };
  }

  it.each(Object.entries(scenarios))('%s', (_title, scenario) => {
    const { events, engine } = run(scenario.given, scenario.when);
    expect(events).toEqual(scenario.then);
    expect(engine.depth()).toEqual(scenario.book);
  });

  it.each(Object.entries(invalidOrders))('rejects %s as INVALID_ORDER, changing nothing', (_title, order) => {
    const { events, engine } = run([limit(1, 1, 'SELL', 101, 5)], at(order));
    expect(events).toEqual([rejected(order.orderId, order.ownerId, 'INVALID_ORDER')]);
    expect(engine.depth()).toEqual(asks([101, 5]));
  });
});
