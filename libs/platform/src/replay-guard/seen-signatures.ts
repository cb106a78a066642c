import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * Signatures of state-changing requests already accepted, until they could no longer pass the
 * timestamp check anyway: the replay guard of API-DECISIONS ("accepted once"). Shared by every
 * gateway replica through Redis in the distributed mode; in process on the embedded default.
 */
export interface SeenSignatures {
  /** Records `key` for `ttlMs` from `now`; false when it is recorded already and not yet expired. */
  firstUse(key: string, ttlMs: number, now: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The embedded store, bounded: entries leave as they expire (after at most recvWindow plus the
 * clock tolerance, 61 s), and when the table is full of live ones it refuses new requests with
 * 503 / -1016 rather than forget a signature and let its replay through.
 */
export class InMemorySeenSignatures implements SeenSignatures {
  private readonly expiries = new Map<string, number>();
  /** No entry expires before this, so a full table is not swept again on every request. */
  private sweepNotBefore = 0;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.expiries.size;
  }

  async firstUse(key: string, ttlMs: number, now: number): Promise<boolean> {
    const expiresAt = this.expiries.get(key);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.dropExpiredFront(now);
    if (this.expiries.size >= this.maxEntries && now >= this.sweepNotBefore) this.sweep(now);
    if (this.expiries.size >= this.maxEntries)
      throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
    this.expiries.delete(key);
    this.expiries.set(key, now + ttlMs);
    return true;
  }

  async close(): Promise<void> {
    this.expiries.clear();
  }

  /**
   * Entries leave from the front (the oldest insertions) as they expire, each once, so the table
   * follows the requests of the last recvWindow rather than filling to its bound between sweeps.
   * An entry with a long window ahead of shorter ones only delays them by that window.
   */
  private dropExpiredFront(now: number): void {
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt > now) return;
      this.expiries.delete(key);
    }
  }

  private sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt <= now) this.expiries.delete(key);
      else earliest = Math.min(earliest, expiresAt);
    }
    this.sweepNotBefore = earliest;
  }
}
