import type { AccountRecord, LedgerOrderRecord, LedgerWithdrawalRecord } from '@exchange/contracts';
import {
  type AccountFlags,
  type ApiKeyState,
  type LedgerState,
  queueFinalOrders,
  setSpotOrder,
  type UserState,
} from '../domain/ledger-state';
import { Money } from '../domain/ledger-money';
import { clearingAccountIdOf, insuranceAccountIdOf } from '../domain/ledger-ids';
import {
  captureContracts,
  entriesOf,
  forgetContracts,
  type PartitionContracts,
  restoreContracts,
} from './partition-contracts';

/**
 * One ledger.commands partition's share of the hot state, as plain JSON: what a snapshot holds.
 * Maps become arrays in their iteration order, which the fold relies on (ended client ids are in
 * the order they ended, and eviction walks them from the oldest).
 */
export interface PartitionState {
  users: UserState[];
  accounts: { record: AccountRecord; flags: AccountFlags; balances: [asset: string, free: string, locked: string][] }[];
  apiKeys: ApiKeyState[];
  orders: LedgerOrderRecord[];
  clientIds: [accountId: string, entries: [clientOrderId: string, orderId: string][]][];
  /**
   * The final orders' client ids still held, with their finalTime, in the order they became final
   * (eviction's order). Absent from snapshots taken before it was kept: rebuilt by finalTime then.
   */
  endedClientIds?: [accountId: string, entries: [clientOrderId: string, finalTime: number][]][];
  withdrawals: LedgerWithdrawalRecord[];
  withdrawalClientIds: [accountId: string, entries: [clientOrderId: string, withdrawalId: string][]][];
  /** The contracts fold's share: the partition's contracts accounts (and fee account's USDT). Absent from snapshots taken before contracts. */
  contracts?: PartitionContracts;
  /** Command ids decided within the retry window, with their decision time, oldest first. */
  processed: [commandId: string, decidedAt: number][];
}

/** Which partition a user's state belongs to, and the partition's fee account. */
export interface PartitionScope {
  partition: number;
  partitionOf(userId: string): number;
  feeAccountId: string;
}

function owns(scope: PartitionScope, userId: string, accountId?: string): boolean {
  // Fee accounts (user '0') are one per partition, named by it rather than by their user.
  if (userId === '0') return accountId === scope.feeAccountId;
  return scope.partitionOf(userId) === scope.partition;
}

/**
 * The accounts whose contract state the partition owns: its users' accounts, its fee account (a
 * contract fill credits the fee account's USDT in the contracts fold before, or without, the fee
 * account existing in the ledger's accounts), and its insurance fund share and funding clearing
 * account, which exist only in the contracts fold.
 */
function contractAccountsOf(state: LedgerState, scope: PartitionScope): Set<string> {
  const accountIds = new Set<string>([
    scope.feeAccountId,
    insuranceAccountIdOf(scope.partition),
    clearingAccountIdOf(scope.partition),
  ]);
  for (const [accountId, a] of state.accounts) if (owns(scope, a.record.userId, accountId)) accountIds.add(accountId);
  return accountIds;
}

export function capturePartition(
  state: LedgerState,
  scope: PartitionScope,
  processed: [string, number][],
): PartitionState {
  const accountIds = new Set<string>();
  const accounts: PartitionState['accounts'] = [];
  for (const [accountId, a] of state.accounts) {
    if (!owns(scope, a.record.userId, accountId)) continue;
    accountIds.add(accountId);
    accounts.push({
      record: a.record,
      flags: a.flags,
      balances: [...a.balances].map(([asset, b]) => [asset, b.free.toFixed(), b.locked.toFixed()]),
    });
  }
  return {
    users: [...state.users.values()]
      .filter((u) => owns(scope, u.userId))
      .map((u) => ({ ...u, accountIds: [...u.accountIds] })),
    accounts,
    apiKeys: [...state.apiKeys.values()].filter((k) => owns(scope, k.userId)),
    orders: [...state.orders.values()].filter((o) => owns(scope, o.userId)),
    clientIds: entriesOf(state.clientIds, accountIds),
    endedClientIds: entriesOf(state.clientIdsEnded, accountIds),
    withdrawals: [...state.withdrawals.values()].filter((w) => owns(scope, w.userId)),
    withdrawalClientIds: entriesOf(state.withdrawalClientIds, accountIds),
    contracts: captureContracts(state, contractAccountsOf(state, scope)),
    processed,
  };
}

/** Removes everything of the partition from the state, so it can be restored or folded afresh. */
export function forgetPartition(state: LedgerState, scope: PartitionScope): void {
  forgetContracts(state, contractAccountsOf(state, scope));
  const accountIds = new Set<string>();
  for (const [accountId, a] of state.accounts) if (owns(scope, a.record.userId, accountId)) accountIds.add(accountId);
  for (const accountId of accountIds) {
    state.accounts.delete(accountId);
    state.openOrderIds.delete(accountId);
    state.clientIds.delete(accountId);
    state.clientIdsEnded.delete(accountId);
    state.withdrawalClientIds.delete(accountId);
  }
  for (const [userId] of state.users) if (owns(scope, userId)) state.users.delete(userId);
  for (const [apiKey, k] of state.apiKeys) if (owns(scope, k.userId)) state.apiKeys.delete(apiKey);
  for (const [orderId, o] of state.orders) if (owns(scope, o.userId)) state.orders.delete(orderId);
  for (const [withdrawalId, w] of state.withdrawals) if (owns(scope, w.userId)) state.withdrawals.delete(withdrawalId);
}

/** Puts a captured partition back into a state that holds nothing of it (see forgetPartition). */
export function restorePartition(state: LedgerState, captured: PartitionState): void {
  for (const u of captured.users) state.users.set(u.userId, { ...u, accountIds: [...u.accountIds] });
  for (const a of captured.accounts) {
    const balances = new Map(
      a.balances.map(([asset, free, locked]) => [asset, { free: new Money(free), locked: new Money(locked) }]),
    );
    state.accounts.set(a.record.accountId, { record: a.record, flags: { ...a.flags }, balances });
  }
  for (const k of captured.apiKeys) state.apiKeys.set(k.apiKey, { ...k });
  for (const o of captured.orders) setSpotOrder(state, o);
  for (const [accountId, entries] of captured.clientIds) state.clientIds.set(accountId, new Map(entries));
  if (captured.endedClientIds)
    for (const [accountId, entries] of captured.endedClientIds) state.clientIdsEnded.set(accountId, new Map(entries));
  else queueFinalOrders(state, captured.orders);
  for (const w of captured.withdrawals) state.withdrawals.set(w.withdrawalId, w);
  for (const [accountId, entries] of captured.withdrawalClientIds)
    state.withdrawalClientIds.set(accountId, new Map(entries));
  if (captured.contracts) restoreContracts(state, captured.contracts);
}
