/**
 * The ids of the last `capacity` commands a book applied, oldest first. Publishers deliver at
 * least once (an outbox relay may send a command again after a crash, at a new offset), so
 * offsets alone cannot tell a repeat; this window can, for repeats within `capacity` commands of
 * the original. It is part of the book's state (and snapshot): which repeats are dropped must be
 * the same on every replay.
 */
export class RecentCommandIds {
  private readonly ids = new Set<string>();

  constructor(
    private readonly capacity: number,
    initial: readonly string[] = [],
  ) {
    for (const id of initial.slice(-capacity)) this.ids.add(id);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      // A Set iterates in insertion order, so its first entry is the oldest.
      const oldest = this.ids.values().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
  }

  toArray(): string[] {
    return [...this.ids];
  }
}
