import type { LedgerJournalEvent } from '@exchange/contracts';
import { LRUCache } from 'lru-cache';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';

export interface CachedAccount {
  account: AccountRow;
  balances: Map<string, { free: string; locked: string }>;
  /** The user's ledger sequence this view includes; older events are ignored. */
  seq: number;
  /** The formatted balances, kept until the next change: reads outnumber changes. */
  rendered?: unknown;
  /** The whole account answer as JSON text, kept until the next change of balances or flags. */
  answer?: string;
}

/**
 * Accounts as the gateway serves them: loaded once from the ledger's tables, then kept current by
 * the ledger events every replica reads (each event carries the balances after it and the user's
 * sequence). A replica sees a command's effects before it answers the command, so a client routed
 * to the same replica (the edge hashes on the API key) reads its own writes.
 *
 * At most `maxEntries` accounts, least recently used out first: memory follows the accounts in
 * use, not every account ever read. An account not held is read from the tables, which the
 * ledger's projection writes after the events: a read older than an event this replica already
 * saw for the user is served but not kept (no later event would correct it), and the next read
 * loads again.
 */
export class AccountCache {
  private readonly entries: LRUCache<string, CachedAccount>;
  /** The cached accounts of each user: an event advances the sequence of all of them. */
  private readonly byUser = new Map<string, Set<CachedAccount>>();
  /** The newest sequence seen per user, held or not: what a load from the tables must include to be kept. */
  private readonly seenSeq: LRUCache<string, number>;

  constructor(
    private readonly reader: LedgerReader,
    maxEntries = 100_000,
  ) {
    this.entries = new LRUCache({ max: maxEntries, dispose: (entry) => this.forgetOfUser(entry) });
    this.seenSeq = new LRUCache({ max: maxEntries });
  }

  get size(): number {
    return this.entries.size;
  }

  async get(accountId: string): Promise<CachedAccount | undefined> {
    const cached = this.entries.get(accountId);
    if (cached) return cached;
    const loaded = await this.reader.accountWithBalances(accountId);
    if (!loaded) return undefined;
    if (loaded.seq < (this.seenSeq.get(loaded.account.userId) ?? 0)) return loaded;
    const current = this.entries.get(accountId);
    if (!current || current.seq < loaded.seq) {
      this.entries.set(accountId, loaded);
      let ofUser = this.byUser.get(loaded.account.userId);
      if (!ofUser) this.byUser.set(loaded.account.userId, (ofUser = new Set()));
      ofUser.add(loaded);
    }
    return this.entries.get(accountId);
  }

  apply(event: LedgerJournalEvent): void {
    const seq = event.payload.seq;
    if (seq > (this.seenSeq.get(event.payload.userId) ?? 0)) this.seenSeq.set(event.payload.userId, seq);
    // Every event that changes balances carries them, after the change.
    if ('balances' in event.payload) {
      for (const b of event.payload.balances) {
        const entry = this.entries.peek(b.accountId);
        if (entry && entry.seq < seq) {
          entry.balances.set(b.asset, { free: b.free, locked: b.locked });
          entry.rendered = undefined;
          entry.answer = undefined;
        }
      }
    }
    switch (event.type) {
      case 'AccountFlagsSet': {
        const entry = this.entries.peek(event.payload.accountId);
        if (entry && entry.seq < seq) {
          entry.answer = undefined;
          entry.account = {
            ...entry.account,
            canTrade: event.payload.canTrade,
            canWithdraw: event.payload.canWithdraw,
            canDeposit: event.payload.canDeposit,
          };
        }
        break;
      }
      default:
        break;
    }
    for (const entry of this.byUser.get(event.payload.userId) ?? []) if (entry.seq < seq) entry.seq = seq;
  }

  private forgetOfUser(entry: CachedAccount): void {
    const ofUser = this.byUser.get(entry.account.userId);
    ofUser?.delete(entry);
    if (ofUser?.size === 0) this.byUser.delete(entry.account.userId);
  }
}
