import {
  Markets,
  type OrderCommand,
  orderCommandSchema,
  orderEventSchema,
  settlementCommandSchema,
} from '@exchange/contracts';
import { randomOrderCommands, setStatus, submit } from '../testing/order-commands.fixtures';
import { SymbolBook } from './symbol-book';
import { SymbolEngines } from './symbol-engines';

/** The shipped markets file: BTC-SWAP-USDT trades on a book of its own (tick 0.1, one contract a lot). */
const markets = Markets.fromFile('config/markets.json');
const SWAP = 'BTC-SWAP-USDT';

function messages(engines: SymbolEngines, commands: readonly OrderCommand[]) {
  return commands.flatMap((c) => {
    const out = engines.apply(orderCommandSchema.parse(c));
    return out === undefined ? [] : [...out.events, ...out.settlements];
  });
}

describe('contract books in the matching engine', () => {
  const order = (
    id: string,
    orderId: string,
    accountId: string,
    side: 'BUY' | 'SELL',
    price: string,
    quantity: string,
    more: Partial<Parameters<typeof submit>[1]> = {},
  ) =>
    submit(id, { symbol: SWAP, orderId, accountId, userId: accountId, side, type: 'LIMIT', price, quantity, ...more });

  it('keeps a book per contract beside the spot books', () => {
    const engines = new SymbolEngines(markets, 4, 100);
    expect(engines.get(SWAP)?.symbol).toBe(SWAP);
    expect(engines.get('ETH-SWAP-USDT')).toBeDefined();
    expect(engines.get('BTCUSDT')).toBeDefined();
  });

  it('matches contract orders in ticks and lots, with events and settlement legs that parse', () => {
    const engines = new SymbolEngines(markets, 4, 100);
    const out = messages(engines, [
      order('c1', '11', '501', 'SELL', '30000.5', '7'),
      order('c2', '12', '502', 'BUY', '30001', '5'),
    ]);
    for (const m of out)
      expect(orderEventSchema.safeParse(m).success || settlementCommandSchema.safeParse(m).success).toBe(true);
    const trade = out.find((m) => m.type === 'TradeExecuted');
    expect(trade?.payload).toMatchObject({
      symbol: SWAP,
      price: '30000.5',
      qty: '5',
      makerOrderId: '11',
      takerOrderId: '12',
      makerRemainingQty: '2',
    });
    const legs = out.filter((m) => m.type === 'SettleTradeLeg').map((m) => m.payload);
    expect(legs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accountId: '501', side: 'SELL', price: '30000.5', qty: '5', isMaker: true }),
        expect.objectContaining({ accountId: '502', side: 'BUY', price: '30000.5', qty: '5', isMaker: false }),
      ]),
    );
    expect(legs).toHaveLength(2);
  });

  it('applies time in force, self-trade prevention, LIMIT_MAKER and halts as on spot', () => {
    const engines = new SymbolEngines(markets, 4, 100);
    messages(engines, [order('r1', '21', '601', 'SELL', '100', '3')]);
    const outcome = (cmd: OrderCommand) =>
      messages(engines, [cmd])
        .filter((m) => m.type === 'ApplyOrderOutcome')
        .map((m) => m.payload);
    expect(outcome(order('f1', '22', '602', 'BUY', '100', '4', { timeInForce: 'FOK' }))).toEqual([
      expect.objectContaining({ orderId: '22', outcome: 'CANCELED' }),
    ]);
    expect(outcome(order('m1', '23', '602', 'BUY', '100', '1', { type: 'LIMIT_MAKER' }))).toEqual([
      expect.objectContaining({ orderId: '23', outcome: 'REJECTED' }),
    ]);
    expect(outcome(order('s1', '24', '601', 'BUY', '100', '1'))).toEqual([
      expect.objectContaining({ orderId: '24', outcome: 'CANCELED' }),
    ]);
    messages(engines, [setStatus('h1', { symbol: SWAP, status: 'HALT' })]);
    expect(outcome(order('h2', '25', '602', 'BUY', '100', '1'))).toEqual([
      expect.objectContaining({ orderId: '25', outcome: 'REJECTED', reason: 'SYMBOL_NOT_TRADING' }),
    ]);
  });

  it('restores a contract book from its snapshot and continues byte for byte', () => {
    const config = markets.book(SWAP)!;
    const stream = randomOrderCommands(SWAP, 7, 400, 0, markets);
    const run = (book: SymbolBook, commands: readonly OrderCommand[]) =>
      commands.flatMap((c) => book.apply(c) ?? []).map((o) => JSON.stringify([o.events, o.settlements]));
    const straight = SymbolBook.empty(config, 100);
    const expected = run(straight, stream);
    const first = SymbolBook.empty(config, 100);
    const before = run(first, stream.slice(0, 177));
    const restored = SymbolBook.restore(
      config,
      100,
      JSON.parse(JSON.stringify(first.state())) as ReturnType<SymbolBook['state']>,
    );
    expect([...before, ...run(restored, stream.slice(177))]).toEqual(expected);
    expect(restored.stateHash()).toBe(straight.stateHash());
  });
});
