import { Money } from '../ledger-money';
import { seededRandom } from '../seeded-random.fixtures';
import { PriceHeap } from './price-heap';

describe('PriceHeap', () => {
  it.each(['asc', 'desc'] as const)(
    'answers crossed() exactly as a scan would, through random upserts and removals (%s)',
    (order) => {
      const rnd = seededRandom(order === 'asc' ? 7 : 8);
      const heap = new PriceHeap(order);
      const model = new Map<string, Money>();
      for (let step = 0; step < 3000; step++) {
        const key = String(Math.floor(rnd() * 300));
        if (rnd() < 0.3) {
          heap.remove(key);
          model.delete(key);
        } else {
          const price = new Money(Math.floor(rnd() * 1000)).div(10);
          heap.upsert(key, price);
          model.set(key, price);
        }
        expect(heap.size).toBe(model.size);
        if (step % 50 === 0) {
          const threshold = new Money(Math.floor(rnd() * 1000)).div(10);
          const expected = [...model]
            .filter(([, p]) => (order === 'desc' ? p.gte(threshold) : p.lte(threshold)))
            .map(([k]) => k);
          expect(heap.crossed(threshold).sort()).toEqual(expected.sort());
        }
      }
      for (const [key, price] of model) expect(heap.priceOf(key)?.eq(price)).toBe(true);
    },
  );

  it('finds nothing on an empty heap and ties at the threshold are crossed', () => {
    const heap = new PriceHeap('desc');
    expect(heap.crossed(new Money(1))).toEqual([]);
    heap.upsert('a', new Money('100'));
    heap.upsert('b', new Money('99.9'));
    expect(heap.crossed(new Money('100'))).toEqual(['a']);
    heap.remove('a');
    heap.remove('a');
    expect(heap.crossed(new Money('100'))).toEqual([]);
  });
});
