import type { LedgerJournalEvent } from '@exchange/contracts';
import { isContractJournalEvent } from '@exchange/contracts';
import type { LedgerState } from '../domain/ledger-state';
import { clearingAccountIdOf, insuranceAccountIdOf } from '../domain/ledger-ids';
import { captureContracts } from './partition-contracts';
import type { PartitionScope, PartitionState } from './partition-state';

/**
 * The unit an incremental snapshot writes: one user's share of the partition (its user state,
 * accounts, api keys, orders, withdrawals, client ids and its accounts' contracts state), or the
 * partition's own share under PARTITION_SHARE (the fee account, the insurance and clearing
 * contracts accounts, fundings, marks and ADLs). Each is a PartitionState holding only that share,
 * so restorePartition puts it back; the partition is the union of its shares.
 */
export const PARTITION_SHARE = '0';

/** A share as written: with, per account, when the fold last evicted its ended orders (see ended-orders.ts). */
export interface Share extends PartitionState {
  evictedAt: [accountId: string, at: number][];
}

/** The users (PARTITION_SHARE for the partition's own accounts) whose share an event changed. */
export function changedShares(event: LedgerJournalEvent, state: LedgerState, into: Set<string>): void {
  into.add(event.payload.userId);
  // A contracts event may move other accounts than its user's (funding payments, deleveraged counterparties).
  if (isContractJournalEvent(event)) collectOwners(event.payload, state, into, 0);
}

function collectOwners(value: unknown, state: LedgerState, into: Set<string>, depth: number): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectOwners(item, state, into, depth + 1);
    return;
  }
  for (const [key, field] of Object.entries(value)) {
    if (key === 'accountId' && typeof field === 'string')
      into.add(state.accounts.get(field)?.record.userId ?? PARTITION_SHARE);
    else if (typeof field === 'object') collectOwners(field, state, into, depth + 1);
  }
}

/** The users of the partition, PARTITION_SHARE included: every share a full snapshot writes. */
export function allShares(state: LedgerState, scope: PartitionScope): Set<string> {
  const shares = new Set<string>([PARTITION_SHARE]);
  for (const userId of state.users.keys()) if (scope.partitionOf(userId) === scope.partition) shares.add(userId);
  return shares;
}

/**
 * Each named share of the partition, as a PartitionState without what is kept apart: the window's
 * processed ids, and the ended orders, spot and contract, that hold their client ids
 * (ended-orders.ts). Costs what the shares hold, but for the api keys, which are scanned once for
 * them all (no index by user), and the partition's fundings, marks and ADLs (a few per symbol).
 */
export function captureShares(
  state: LedgerState,
  scope: PartitionScope,
  userIds: ReadonlySet<string>,
  evictedAt: ReadonlyMap<string, number>,
): Map<string, Share> {
  const shares = new Map<string, Share>();
  const ownerOf = new Map<string, Share>();
  for (const userId of userIds) {
    const accountIds = accountsOfShare(state, scope, userId);
    if (accountIds === undefined) continue;
    const share = emptyShare();
    shares.set(userId, share);
    const user = state.users.get(userId);
    if (user) share.users.push({ ...user, accountIds: [...user.accountIds] });
    for (const accountId of accountIds) {
      ownerOf.set(accountId, share);
      captureAccount(state, accountId, share);
      const at = evictedAt.get(accountId);
      if (at !== undefined) share.evictedAt.push([accountId, at]);
    }
  }
  for (const k of state.apiKeys.values()) if (userIds.has(k.userId)) shares.get(k.userId)?.apiKeys.push(k);
  const contracts = captureContracts(state, new Set(ownerOf.keys()), true);
  for (const b of contracts.balances) ownerOf.get(b.accountId)!.contracts!.balances.push(b);
  for (const p of contracts.positions) ownerOf.get(p.accountId)!.contracts!.positions.push(p);
  for (const o of contracts.orders) ownerOf.get(o.accountId)!.contracts!.orders.push(o);
  for (const e of contracts.clientIds) ownerOf.get(e[0])!.contracts!.clientIds.push(e);
  for (const e of contracts.endedClientIds ?? []) ownerOf.get(e[0])!.contracts!.endedClientIds!.push(e);
  for (const e of contracts.uncovered ?? []) ownerOf.get(e[0])!.contracts!.uncovered!.push(e);
  // Fundings, marks and ADLs are kept per fund account: the partition's own share.
  const own = shares.get(PARTITION_SHARE);
  if (own) {
    own.contracts!.fundings = contracts.fundings;
    own.contracts!.fundingCursors = contracts.fundingCursors;
    own.contracts!.marks = contracts.marks;
    own.contracts!.adlPending = contracts.adlPending;
    own.contracts!.adlReserved = contracts.adlReserved;
  }
  return shares;
}

/** The accounts of a share; undefined for a user the partition does not hold. */
function accountsOfShare(state: LedgerState, scope: PartitionScope, userId: string): readonly string[] | undefined {
  if (userId === PARTITION_SHARE)
    // The insurance and clearing accounts exist only in the contracts fold; a user's account is never the partition's.
    return [scope.feeAccountId, insuranceAccountIdOf(scope.partition), clearingAccountIdOf(scope.partition)].filter(
      (accountId) => (state.accounts.get(accountId)?.record.userId ?? PARTITION_SHARE) === PARTITION_SHARE,
    );
  if (scope.partitionOf(userId) !== scope.partition) return undefined;
  return state.users.get(userId)?.accountIds;
}

function captureAccount(state: LedgerState, accountId: string, share: Share): void {
  const account = state.accounts.get(accountId);
  if (account)
    share.accounts.push({
      record: account.record,
      flags: account.flags,
      balances: [...account.balances].map(([asset, b]) => [asset, b.free.toFixed(), b.locked.toFixed()]),
    });
  const clientIds = state.clientIds.get(accountId);
  if (clientIds) {
    // The open orders hold their client ids (putOrder); the ended ones, most of a busy account's, are kept apart.
    const held: [string, string][] = [];
    for (const orderId of state.openOrderIds.get(accountId) ?? []) {
      const order = state.orders.get(orderId)!;
      share.orders.push(order);
      if (clientIds.get(order.clientOrderId) === orderId) held.push([order.clientOrderId, orderId]);
    }
    share.clientIds.push([accountId, held]);
  }
  const withdrawalIds = state.withdrawalClientIds.get(accountId);
  if (withdrawalIds) {
    share.withdrawalClientIds.push([accountId, [...withdrawalIds]]);
    for (const withdrawalId of withdrawalIds.values()) {
      const withdrawal = state.withdrawals.get(withdrawalId);
      if (withdrawal) share.withdrawals.push(withdrawal);
    }
  }
}

function emptyShare(): Share {
  return {
    evictedAt: [],
    users: [],
    accounts: [],
    apiKeys: [],
    orders: [],
    clientIds: [],
    endedClientIds: [],
    withdrawals: [],
    withdrawalClientIds: [],
    contracts: {
      balances: [],
      positions: [],
      orders: [],
      clientIds: [],
      endedClientIds: [],
      fundings: [],
      fundingCursors: [],
      marks: [],
      uncovered: [],
      adlPending: [],
      adlReserved: [],
    },
    processed: [],
  };
}
