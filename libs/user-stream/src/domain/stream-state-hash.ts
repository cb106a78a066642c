import { createHash } from 'node:crypto';
import type { AccountFlags } from '@exchange/contracts';
import type { BalanceChange } from './stream-frames';

/**
 * One account's stream as two copies of it can be compared: where it stands (the account's flags
 * and its user's ledger sequence, what a stream starts from) and the balances a client that
 * followed it holds (the last B entry per asset, at the asset's precision). The last E is not part
 * of it: each replica's E starts from when that replica began streaming the account.
 */
export interface StreamedAccount {
  accountId: string;
  userId: string;
  flags: AccountFlags;
  seq: number;
  balances: readonly BalanceChange[];
}

/** A digest of every account's stream, independent of the order accounts and balances are listed in. */
export function streamStateHash(accounts: Iterable<StreamedAccount>): string {
  const hash = createHash('sha256');
  for (const line of [...accounts].map(streamedAccountLine).sort()) hash.update(line);
  return hash.digest('hex');
}

/** The account's part of the digest: equal lines, equal streams. */
export function streamedAccountLine(account: StreamedAccount): string {
  const { canTrade, canWithdraw, canDeposit } = account.flags;
  const balances = [...account.balances]
    .sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : 0))
    .map((b) => `${b.a}:${b.f}:${b.l}`);
  return `${account.accountId}|${account.userId}|${account.seq}|${canTrade}|${canWithdraw}|${canDeposit}|${balances.join(',')}\n`;
}
