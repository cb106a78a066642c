import type { LedgerOrderRecord } from '@exchange/contracts';
import { evictEndedOrders, type LedgerState, setSpotOrder } from '../domain/ledger-state';
import type { PartitionScope } from './partition-state';

/**
 * The final spot orders that hold their client id for the retry window (open orders are in their
 * user's share): what a busy account has most of, so incremental snapshots keep them apart, in a
 * ring (slot-ring.ts) of the orders ended since each snapshot, numbered in the order they ended
 * (the order eviction reads them in, see client-id-window.ts).
 */
export type EndedOrder = [seq: number, order: LedgerOrderRecord];

/** The order, when it is final and holds its client id among its account's ended ones. */
export function endedHolding(state: LedgerState, orderId: string): LedgerOrderRecord | undefined {
  const order = state.orders.get(orderId);
  if (order?.finalTime === undefined) return undefined;
  const { accountId, clientOrderId } = order;
  const holds =
    state.clientIds.get(accountId)?.get(clientOrderId) === orderId &&
    state.clientIdsEnded.get(accountId)?.has(clientOrderId) === true;
  return holds ? order : undefined;
}

/** Every ended order of the partition's users that holds its client id, each account's in the order they ended. */
export function endedOrdersOf(state: LedgerState, scope: PartitionScope): string[] {
  const orderIds: string[] = [];
  for (const user of state.users.values()) {
    if (scope.partitionOf(user.userId) !== scope.partition) continue;
    for (const accountId of user.accountIds) {
      const index = state.clientIds.get(accountId);
      for (const clientOrderId of state.clientIdsEnded.get(accountId)?.keys() ?? []) {
        const orderId = index?.get(clientOrderId);
        if (orderId !== undefined) orderIds.push(orderId);
      }
    }
  }
  return orderIds;
}

/**
 * Puts the ended orders of the ring back into a state whose shares are restored, as the fold held
 * them: an order is held unless its client id is held by an order of the shares (open, taken after
 * it) or by an order that ended after it; each account's come back in the order they ended, then
 * leave as the fold's eviction at the account's last placement (`evictedAt`) made them leave.
 */
export function restoreEndedOrders(
  state: LedgerState,
  ended: readonly EndedOrder[],
  evictedAt: ReadonlyMap<string, number>,
): void {
  const sorted = [...ended].sort((a, b) => a[0] - b[0]);
  const holder = new Map<string, LedgerOrderRecord>();
  for (const [, order] of sorted) holder.set(`${order.accountId}|${order.clientOrderId}`, order);
  const accounts = new Set<string>();
  for (const [, order] of sorted) {
    const { accountId, clientOrderId, orderId } = order;
    if (holder.get(`${accountId}|${clientOrderId}`)?.orderId !== orderId) continue;
    let index = state.clientIds.get(accountId);
    if (!index) state.clientIds.set(accountId, (index = new Map()));
    if (index.has(clientOrderId) && index.get(clientOrderId) !== orderId) continue;
    let endedIds = state.clientIdsEnded.get(accountId);
    if (!endedIds) state.clientIdsEnded.set(accountId, (endedIds = new Map()));
    // An order written again (a duplicate outcome) keeps the place it ended in.
    if (endedIds.has(clientOrderId)) continue;
    index.set(clientOrderId, orderId);
    endedIds.set(clientOrderId, order.finalTime!);
    setSpotOrder(state, order);
    accounts.add(accountId);
  }
  for (const accountId of accounts) {
    const at = evictedAt.get(accountId);
    if (at !== undefined) evictEndedOrders(state, accountId, at);
  }
}
