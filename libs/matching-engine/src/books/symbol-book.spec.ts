import type { OrderCommand } from '@exchange/contracts';
import { testMarkets } from '../testing/engine-harness';
import { randomOrderCommands, submit } from '../testing/order-commands.fixtures';
import { SymbolBook } from './symbol-book';

const config = testMarkets.symbol('BTCUSDT')!;
const stream = randomOrderCommands('BTCUSDT', 3, 600, 0);

function run(book: SymbolBook, commands: readonly OrderCommand[]): string[] {
  return commands.flatMap((c) => {
    const out = book.apply(c);
    return out === undefined ? [] : [...out.events, ...out.settlements].map((m) => JSON.stringify(m));
  });
}

describe('SymbolBook: the engine at its contract boundary, as a pure fold', () => {
  it('gives the same messages, byte for byte, for the same commands', () => {
    expect(run(SymbolBook.empty(config, 100), stream)).toEqual(run(SymbolBook.empty(config, 100), stream));
  });

  it('continues from its state exactly as if it had never stopped', () => {
    const straight = SymbolBook.empty(config, 100);
    const expected = run(straight, stream);
    for (const cut of [1, 150, 333, 599]) {
      const first = SymbolBook.empty(config, 100);
      const before = run(first, stream.slice(0, cut));
      const state = JSON.parse(JSON.stringify(first.state())) as ReturnType<SymbolBook['state']>;
      const restored = SymbolBook.restore(config, 100, state);
      expect([...before, ...run(restored, stream.slice(cut))]).toEqual(expected);
      expect(restored.stateHash()).toBe(straight.stateHash());
    }
  });

  it('drops a repeated command id within its window and forgets ids beyond it', () => {
    const book = SymbolBook.empty(config, 2);
    const order = (id: string, orderId: string): OrderCommand =>
      submit(id, {
        symbol: 'BTCUSDT',
        orderId,
        accountId: '1',
        userId: '1',
        side: 'BUY',
        type: 'LIMIT',
        price: '1',
        quantity: '1',
      });
    expect(book.apply(order('a', '1'))).toBeDefined();
    expect(book.apply(order('a', '1'))).toBeUndefined();
    book.apply(order('b', '2'));
    book.apply(order('c', '3'));
    // 'a' left the window: it is decided again, and the engine rejects the resting order id.
    expect(book.apply(order('a', '1'))?.events.map((e) => e.type)).toEqual(['OrderRejected']);
  });
});
