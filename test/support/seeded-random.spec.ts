import { chaosSeed, SeededRandom } from './seeded-random';

describe('SeededRandom', () => {
  const draws = (seed: number) => {
    const random = new SeededRandom(seed);
    return [random.next(), random.int(1, 6), random.pick(['a', 'b', 'c']), random.shuffle([1, 2, 3, 4, 5]).join('')];
  };

  it('draws the same sequence from the same seed, and another from another seed', () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
  });

  it('draws integers in the closed range, both ends included', () => {
    const random = new SeededRandom(7);
    const seen = new Set(Array.from({ length: 500 }, () => random.int(3, 5)));
    expect([...seen].sort()).toEqual([3, 4, 5]);
  });

  it('shuffles into a permutation', () => {
    expect(new SeededRandom(1).shuffle([1, 2, 3, 4, 5, 6]).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('chaosSeed', () => {
  const saved = process.env.CHAOS_SEED;
  afterEach(() => (saved === undefined ? delete process.env.CHAOS_SEED : (process.env.CHAOS_SEED = saved)));

  it('takes CHAOS_SEED when set, so a failed run reproduces its plan', () => {
    process.env.CHAOS_SEED = '1600442678';
    expect(chaosSeed()).toBe(1600442678);
  });

  it('refuses a CHAOS_SEED that is not a non-negative integer', () => {
    process.env.CHAOS_SEED = '12abc';
    expect(() => chaosSeed()).toThrow('CHAOS_SEED');
  });

  it('draws a fresh seed when CHAOS_SEED is unset', () => {
    delete process.env.CHAOS_SEED;
    expect(Number.isSafeInteger(chaosSeed())).toBe(true);
  });
});
