import { ProcessedIds } from '@exchange/messaging';
import { PROCESSED_ID_SLOTS, ProcessedIdSlots } from './processed-id-slots';

describe('the ring of processed-id slots', () => {
  it('writes each snapshot the ids decided since the last, in the next slot', () => {
    const processed = new ProcessedIds();
    const slots = new ProcessedIdSlots();
    processed.add('a', 1);
    expect(slots.take(['a'], [1], processed)).toEqual({ slot: 0, entries: [['a', 1]] });
    processed.add('b', 2);
    expect(slots.take(['b'], [2], processed)).toEqual({ slot: 1, entries: [['b', 2]] });
    expect(slots.take([], [], processed)).toBeUndefined();
    expect(slots.next).toBe(2);
  });

  it('carries the ids the window still holds into the slot that reuses their key, and drops those it left', () => {
    const processed = new ProcessedIds();
    const slots = new ProcessedIdSlots();
    for (let n = 0; n < PROCESSED_ID_SLOTS; n++) {
      processed.add(`id${n}`, n);
      slots.take([`id${n}`], [n], processed);
    }
    processed.expire(1);
    processed.add('new', 100);
    // Slot 0 held id0, which expired; slot 1 holds id1, still in the window.
    expect(slots.take(['new'], [100], processed)).toEqual({ slot: 0, entries: [['new', 100]] });
    processed.add('newer', 101);
    expect(slots.take(['newer'], [101], processed)).toEqual({
      slot: 1,
      entries: [
        ['id1', 1],
        ['newer', 101],
      ],
    });
  });
});
