import type { ProcessedIds } from '@exchange/messaging';

/** Slots of the ring: at one snapshot per LEDGER_SNAPSHOT_EVERY commands, a window of up to this many snapshots carries nothing over. */
export const PROCESSED_ID_SLOTS = 64;

/**
 * The retry window's processed command ids on a compacted topic that has no tombstones: a ring of
 * keys reused in turn. Each snapshot writes the next slot with the ids decided since the one
 * before, plus the ids of what the slot held that the window still holds (the oldest slot: none,
 * unless the window spans more snapshots than there are slots). Rewriting a slot's key replaces
 * its old value on compaction, so the topic holds at most a window of ids in PROCESSED_ID_SLOTS keys.
 */
export class ProcessedIdSlots {
  private readonly held: string[][];

  constructor(
    private nextSlot = 0,
    held: string[][] = [],
  ) {
    this.held = Array.from({ length: PROCESSED_ID_SLOTS }, (_, slot) => held[slot] ?? []);
  }

  get next(): number {
    return this.nextSlot;
  }

  /**
   * The slot to write and its entries, oldest first; undefined when there is nothing to write
   * (what the slot held on the log has then left the window: harmless when read back).
   */
  take(fresh: readonly string[], freshAt: readonly number[], processed: ProcessedIds): SlotWrite | undefined {
    const slot = this.nextSlot;
    const entries: [string, number][] = [];
    for (const id of this.held[slot]!) {
      const at = processed.decidedAtOf(id);
      if (at !== undefined) entries.push([id, at]);
    }
    if (entries.length === 0 && fresh.length === 0) return undefined;
    fresh.forEach((id, i) => entries.push([id, freshAt[i]!]));
    this.held[slot] = entries.map(([id]) => id);
    this.nextSlot = (slot + 1) % PROCESSED_ID_SLOTS;
    return { slot, entries };
  }
}

export interface SlotWrite {
  slot: number;
  entries: [commandId: string, decidedAt: number][];
}
