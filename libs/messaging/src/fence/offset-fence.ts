import type { EventLog } from '../event-log.port';

export interface OffsetFenceOptions {
  /** The group whose progress is awaited (a projection's consumer group). */
  groupId: string;
  topic: string;
  /** How long `passed` waits before giving up. */
  timeoutMs: number;
  /** Pause between two polls of the group's committed offsets while someone waits. */
  pollMs?: number;
}

export class FenceTimeout extends Error {
  override name = 'FenceTimeout';
}

interface Waiter {
  targets: number[];
  resolve(): void;
  reject(error: unknown): void;
  deadline: number;
}

/**
 * Read-your-writes over a projection written off the order path: `passed()` resolves once the
 * group's committed offsets reach the topic's end offsets as read after the call, so whatever
 * was in the topic when a read arrived (a reply some client already holds, whichever replica
 * gave it) is in the projection the read then queries. Reads arriving together share one
 * end-offsets request and one poll loop: the cost per read is what one request costs, not a
 * request per read.
 */
export class OffsetFence {
  private pendingEnds: { promise: Promise<number[]>; started: boolean } | undefined;
  private readonly waiters = new Set<Waiter>();
  private polling = false;

  constructor(
    private readonly log: EventLog,
    private readonly options: OffsetFenceOptions,
  ) {}

  async passed(): Promise<void> {
    const targets = await this.endsReadAfterNow();
    const committed = await this.log.committedOffsets(this.options.groupId, this.options.topic);
    if (reached(committed, targets)) return;
    return new Promise<void>((resolve, reject) => {
      this.waiters.add({ targets, resolve, reject, deadline: Date.now() + this.options.timeoutMs });
      void this.poll();
    });
  }

  /** An end-offsets request that starts after this call: one not yet sent is joined, one in flight is not. */
  private endsReadAfterNow(): Promise<number[]> {
    if (this.pendingEnds && !this.pendingEnds.started) return this.pendingEnds.promise;
    const pending: { promise: Promise<number[]>; started: boolean } = { promise: Promise.resolve([]), started: false };
    pending.promise = (async () => {
      // Let the reads of this tick join before the request leaves.
      await Promise.resolve();
      pending.started = true;
      try {
        return await this.log.endOffsets(this.options.topic);
      } finally {
        if (this.pendingEnds === pending) this.pendingEnds = undefined;
      }
    })();
    this.pendingEnds = pending;
    return pending.promise;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0) {
        await new Promise((r) => setTimeout(r, this.options.pollMs ?? 2));
        let committed: number[];
        try {
          committed = await this.log.committedOffsets(this.options.groupId, this.options.topic);
        } catch {
          committed = [];
        }
        const now = Date.now();
        for (const waiter of this.waiters) {
          if (reached(committed, waiter.targets)) waiter.resolve();
          else if (now >= waiter.deadline)
            waiter.reject(
              new FenceTimeout(
                `${this.options.groupId} did not reach the end of ${this.options.topic} within ${this.options.timeoutMs} ms`,
              ),
            );
          else continue;
          this.waiters.delete(waiter);
        }
      }
    } finally {
      this.polling = false;
    }
  }
}

function reached(committed: readonly number[], targets: readonly number[]): boolean {
  return targets.every((target, p) => (committed[p] ?? 0) >= target);
}
