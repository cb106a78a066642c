/**
 * The command ids a consumer has processed within the retry window, in memory: a redelivered
 * command is skipped while its id is here. Ids arrive in time order, so expiry trims from the
 * oldest and costs what was added a window ago: memory follows the window, not the history.
 */
export class ProcessedIds {
  private readonly decidedAt = new Map<string, number>();

  has(id: string): boolean {
    return this.decidedAt.has(id);
  }

  /** When the id was decided, while the window holds it. */
  decidedAtOf(id: string): number | undefined {
    return this.decidedAt.get(id);
  }

  add(id: string, at: number): void {
    this.decidedAt.set(id, at);
  }

  /** The ids with their decision time, oldest first: what a snapshot keeps of the window. */
  entries(): [string, number][] {
    return [...this.decidedAt];
  }

  get size(): number {
    return this.decidedAt.size;
  }

  /** Forgets the ids decided before `before`. */
  expire(before: number): void {
    for (const [id, at] of this.decidedAt) {
      if (at >= before) return;
      this.decidedAt.delete(id);
    }
  }
}
