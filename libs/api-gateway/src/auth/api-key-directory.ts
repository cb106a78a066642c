import type { LedgerJournalEvent, Permission } from '@exchange/contracts';
import type { SecretBox } from '@exchange/platform';
import { LRUCache } from 'lru-cache';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';

export interface ApiKeyEntry {
  apiKey: string;
  secretKey: string;
  permissions: Permission[];
  account: AccountRow;
}

/**
 * The gateway's cache of API keys and their accounts, read through from the ledger's tables.
 * Ledger events keep it current on every replica: a revoked key is tombstoned, so a read that
 * raced the revocation cannot bring it back. At most `maxEntries` keys, least recently used out
 * first: an evicted tombstone is safe to lose, since the tables show the revocation before its
 * event reaches any gateway.
 */
export class ApiKeyDirectory {
  private readonly entries: LRUCache<string, ApiKeyEntry | 'revoked'>;

  constructor(
    private readonly reader: LedgerReader,
    private readonly box: SecretBox,
    maxEntries = 100_000,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get size(): number {
    return this.entries.size;
  }

  async find(apiKey: string): Promise<ApiKeyEntry | undefined> {
    const cached = this.entries.get(apiKey);
    if (cached === 'revoked') return undefined;
    if (cached) return cached;
    const row = await this.reader.apiKey(apiKey);
    if (!row || row.revoked) return undefined;
    const account = await this.reader.account(row.accountId);
    if (!account) return undefined;
    const entry: ApiKeyEntry = {
      apiKey,
      secretKey: this.box.decrypt(row.secretCiphertext),
      permissions: row.permissions,
      account,
    };
    if (this.entries.peek(apiKey) !== 'revoked') this.entries.set(apiKey, entry);
    return entry;
  }

  apply(event: LedgerJournalEvent): void {
    if (event.type === 'ApiKeyRevoked') {
      this.entries.set(event.payload.apiKey, 'revoked');
    } else if (event.type === 'AccountFlagsSet') {
      for (const entry of this.entries.values()) {
        if (entry !== 'revoked' && entry.account.accountId === event.payload.accountId) {
          entry.account = {
            ...entry.account,
            canTrade: event.payload.canTrade,
            canWithdraw: event.payload.canWithdraw,
            canDeposit: event.payload.canDeposit,
          };
        }
      }
    }
  }
}
