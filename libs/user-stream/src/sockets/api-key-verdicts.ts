import { LRUCache } from 'lru-cache';

/**
 * What this replica knows of API keys whose listenKeys open sockets: live (the ledger's tables said
 * so) or revoked (a revocation event arrived). A revocation is a tombstone, so a table read that
 * raced it cannot bring the key back. At most `maxEntries` keys, least recently used out first:
 * losing an entry costs one table read, and losing a tombstone is safe, since the tables show the
 * revocation before its event reaches any replica.
 */
export class ApiKeyVerdicts {
  private readonly entries: LRUCache<string, 'live' | 'revoked'>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get size(): number {
    return this.entries.size;
  }

  isRevoked(apiKey: string): boolean {
    return this.entries.peek(apiKey) === 'revoked';
  }

  revoke(apiKey: string): void {
    this.entries.set(apiKey, 'revoked');
  }

  /** Live by the cache, or else by `read` (the tables), remembered unless a revocation arrived meanwhile. */
  async isLive(apiKey: string, read: () => Promise<boolean>): Promise<boolean> {
    const known = this.entries.get(apiKey);
    if (known !== undefined) return known === 'live';
    const live = await read();
    if (live && !this.isRevoked(apiKey)) this.entries.set(apiKey, 'live');
    return live && !this.isRevoked(apiKey);
  }
}
