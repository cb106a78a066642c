import { ProcessedIds } from '@exchange/messaging';
import { RING_SLOTS, SlotRing } from './slot-ring';

type Entry = [id: string, at: number];

/** The processed ids' use: an id is still held while the window holds it. */
const heldBy =
  (processed: ProcessedIds) =>
  ([id]: Entry): Entry | undefined => {
    const at = processed.decidedAtOf(id);
    return at === undefined ? undefined : [id, at];
  };

describe('a ring of snapshot slots', () => {
  it('writes each snapshot the entries since the last, in the next slot', () => {
    const processed = new ProcessedIds();
    const ring = new SlotRing<Entry>();
    processed.add('a', 1);
    expect(ring.take([['a', 1]], heldBy(processed))).toEqual({ slot: 0, entries: [['a', 1]] });
    processed.add('b', 2);
    expect(ring.take([['b', 2]], heldBy(processed))).toEqual({ slot: 1, entries: [['b', 2]] });
    expect(ring.take([], heldBy(processed))).toBeUndefined();
    expect(ring.next).toBe(2);
  });

  it('carries the entries the window still holds into the slot that reuses their key, and drops those it left', () => {
    const processed = new ProcessedIds();
    const ring = new SlotRing<Entry>();
    for (let n = 0; n < RING_SLOTS; n++) {
      processed.add(`id${n}`, n);
      ring.take([[`id${n}`, n]], heldBy(processed));
    }
    processed.expire(1);
    processed.add('new', 100);
    // Slot 0 held id0, which expired; slot 1 holds id1, still in the window.
    expect(ring.take([['new', 100]], heldBy(processed))).toEqual({ slot: 0, entries: [['new', 100]] });
    processed.add('newer', 101);
    expect(ring.take([['newer', 101]], heldBy(processed))).toEqual({
      slot: 1,
      entries: [
        ['id1', 1],
        ['newer', 101],
      ],
    });
  });

  it('keeps in memory what the window holds, not every slot written since the ring last came round', () => {
    const processed = new ProcessedIds();
    const ring = new SlotRing<Entry>();
    for (let snapshot = 0; snapshot < 10; snapshot++) {
      const fresh: Entry[] = Array.from({ length: 100 }, (_, n) => [`s${snapshot}-${n}`, snapshot]);
      for (const [id, at] of fresh) processed.add(id, at);
      processed.expire(snapshot - 1);
      ring.take(fresh, heldBy(processed));
    }
    // The window now holds the last two snapshots' ids; ten slots were written.
    expect(ring.size).toBe(200);
  });
});
