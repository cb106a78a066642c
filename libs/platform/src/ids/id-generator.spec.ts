import { ManualClock } from '../time/clock';
import { IdGenerator } from './id-generator';

describe('IdGenerator', () => {
  it('makes increasing, unique, safe integers, also past 128 per millisecond and when the clock steps back', () => {
    const clock = new ManualClock(1_767_225_600_000);
    const ids = new IdGenerator(3, clock);
    const seen: number[] = [];
    for (let i = 0; i < 1000; i++) seen.push(Number(ids.next()));
    clock.set(1_767_225_500_000);
    for (let i = 0; i < 10; i++) seen.push(Number(ids.next()));
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
    expect(seen.every(Number.isSafeInteger)).toBe(true);
  });

  it('keeps replicas apart by their instance bits', () => {
    const clock = new ManualClock(1_767_225_600_000);
    expect(new IdGenerator(1, clock).next()).not.toBe(new IdGenerator(2, clock).next());
  });

  it('stays below 2^53 for decades', () => {
    expect(Number(new IdGenerator(31, new ManualClock(1_704_067_200_000 + 60 * 365 * 86_400_000)).next())).toBeLessThan(
      2 ** 53,
    );
  });
});
