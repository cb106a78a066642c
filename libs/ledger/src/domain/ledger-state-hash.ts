import { createHash } from 'node:crypto';
import type { LedgerState } from './ledger-state';
import { contractsStateHash } from './contracts/contract-state-hash';

/**
 * A digest of the whole fold, independent of insertion order: two ledgers that applied the same
 * journal agree on it, which is how a rebuild is checked against the live state.
 */
export function ledgerStateHash(state: LedgerState): string {
  const hash = createHash('sha256');
  for (const userId of [...state.users.keys()].sort()) {
    const user = state.users.get(userId)!;
    hash.update(`u|${userId}|${user.name}|${user.seq}|${user.accountIds.join(',')}\n`);
  }
  for (const accountId of [...state.accounts.keys()].sort()) {
    const account = state.accounts.get(accountId)!;
    const r = account.record;
    const f = account.flags;
    hash.update(
      `a|${accountId}|${r.userId}|${r.accountType}|${r.accountIndex}|${r.accountName}|${f.canTrade}|${f.canWithdraw}|${f.canDeposit}\n`,
    );
    for (const asset of [...account.balances.keys()].sort()) {
      const b = account.balances.get(asset)!;
      if (b.free.isZero() && b.locked.isZero()) continue;
      hash.update(`b|${accountId}|${asset}|${b.free.toFixed()}|${b.locked.toFixed()}\n`);
    }
  }
  for (const apiKey of [...state.apiKeys.keys()].sort()) {
    const k = state.apiKeys.get(apiKey)!;
    hash.update(`k|${apiKey}|${k.accountId}|${k.permissions.join(',')}|${k.revoked}\n`);
  }
  for (const orderId of [...state.orders.keys()].sort()) {
    const o = state.orders.get(orderId)!;
    hash.update(
      `o|${orderId}|${o.accountId}|${o.clientOrderId}|${o.status}|${o.isWorking}|${o.executedQty}|${o.cummulativeQuoteQty}|${o.reservedAsset}|${o.reservationLeft}|${o.finalTime ?? ''}\n`,
    );
  }
  // Derived from the orders, but hashed so that every path that loads a state (snapshot, tables, replay) must keep it in step.
  for (const accountId of [...state.openOrderIds.keys()].sort())
    for (const orderId of [...state.openOrderIds.get(accountId)!].sort()) hash.update(`oo|${accountId}|${orderId}\n`);
  for (const accountId of [...state.clientIds.keys()].sort()) {
    const index = state.clientIds.get(accountId)!;
    for (const clientOrderId of [...index.keys()].sort())
      hash.update(`c|${accountId}|${clientOrderId}|${index.get(clientOrderId)}\n`);
  }
  for (const accountId of [...state.clientIdsEnded.keys()].sort()) {
    const ended = state.clientIdsEnded.get(accountId)!;
    for (const clientOrderId of [...ended.keys()].sort())
      hash.update(`e|${accountId}|${clientOrderId}|${ended.get(clientOrderId)}\n`);
  }
  for (const withdrawalId of [...state.withdrawals.keys()].sort()) {
    const w = state.withdrawals.get(withdrawalId)!;
    hash.update(`w|${withdrawalId}|${w.accountId}|${w.clientOrderId}|${w.asset}|${w.quantity}|${w.fee}|${w.status}\n`);
  }
  for (const accountId of [...state.contractClientIds.keys()].sort()) {
    const index = state.contractClientIds.get(accountId)!;
    for (const clientOrderId of [...index.keys()].sort())
      hash.update(`cc|${accountId}|${clientOrderId}|${index.get(clientOrderId)}\n`);
  }
  for (const accountId of [...state.contractClientIdsEnded.keys()].sort()) {
    const ended = state.contractClientIdsEnded.get(accountId)!;
    for (const clientOrderId of [...ended.keys()].sort())
      hash.update(`ce|${accountId}|${clientOrderId}|${ended.get(clientOrderId)}\n`);
  }
  hash.update(`contracts|${contractsStateHash(state.contracts)}\n`);
  return hash.digest('hex');
}
