/** Slots of a ring: at one snapshot per LEDGER_SNAPSHOT_EVERY commands, a window of up to this many snapshots carries nothing over. */
export const RING_SLOTS = 64;

/**
 * What a snapshot keeps of the retry window (the processed command ids, the ended orders that
 * hold their client ids) on a compacted topic that has no tombstones: a ring of keys reused in
 * turn. Each snapshot writes the next slot with the entries since the one before, plus those of
 * what the slot held that the window still holds (the oldest slot: none, unless the window spans
 * more snapshots than there are slots). Rewriting a slot's key replaces its old value on
 * compaction, so the topic holds at most a window of entries in RING_SLOTS keys.
 */
export class SlotRing<E> {
  private readonly held: E[][];

  constructor(
    private nextSlot = 0,
    held: E[][] = [],
  ) {
    this.held = Array.from({ length: RING_SLOTS }, (_, slot) => held[slot] ?? []);
  }

  get next(): number {
    return this.nextSlot;
  }

  /** Entries held in memory, over all slots. */
  get size(): number {
    return this.held.reduce((sum, entries) => sum + entries.length, 0);
  }

  /**
   * The slot to write and its entries, oldest first: what `stillHeld` keeps of the slot's, then
   * `fresh`. Undefined when there is nothing to write (what the slot held on the log has then
   * left the window: harmless when read back).
   */
  take(fresh: readonly E[], stillHeld: (entry: E) => E | undefined): SlotWrite<E> | undefined {
    this.forgetLeft(stillHeld);
    const slot = this.nextSlot;
    const entries: E[] = [];
    for (const entry of this.held[slot]!) {
      const kept = stillHeld(entry);
      if (kept !== undefined) entries.push(kept);
    }
    if (entries.length === 0 && fresh.length === 0) return undefined;
    entries.push(...fresh);
    this.held[slot] = entries;
    this.nextSlot = (slot + 1) % RING_SLOTS;
    return { slot, entries };
  }

  /**
   * Drops, from the front of every slot, the entries the window no longer holds. They leave it in
   * about the order they came (oldest first within a slot), and leaving is final; without this a
   * slot's entries stayed in memory until its key was reused, RING_SLOTS snapshots later: memory
   * followed RING_SLOTS × LEDGER_SNAPSHOT_EVERY commands instead of the window (a soak's heap grew
   * ~380 B per order). The slot's record on the log keeps them until the key is reused; a restore
   * drops them by their time.
   */
  private forgetLeft(stillHeld: (entry: E) => E | undefined): void {
    for (const entries of this.held) {
      let left = 0;
      while (left < entries.length && stillHeld(entries[left]!) === undefined) left += 1;
      if (left > 0) entries.splice(0, left);
    }
  }
}

export interface SlotWrite<E> {
  slot: number;
  entries: E[];
}
