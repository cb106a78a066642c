import type { LedgerJournalEvent, LedgerOrderRecord } from '@exchange/contracts';
import type { ClientIdWindow } from '../domain/client-id-window';
import { contractIds, evictContractClientIds } from '../domain/contracts/contract-journal-fold';
import { evictEndedOrders, type LedgerState, setSpotOrder, spotIds } from '../domain/ledger-state';
import type { PartitionScope } from './partition-state';

/**
 * A contract order that ended holding its client id: the fold keeps no record of it (a final order
 * leaves the contracts fold), only its client id, the order holding it and when it ended.
 */
export type EndedContractId = [accountId: string, clientOrderId: string, orderId: string, finalTime: number];

/**
 * The final orders that hold their client id for the retry window (open orders are in their
 * user's share): what a busy account has most of, so incremental snapshots keep them apart, in a
 * ring (slot-ring.ts) of the orders ended since each snapshot, numbered in the order they ended
 * (the order eviction reads them in, see client-id-window.ts). A spot order is written whole; a
 * contract order as the fold keeps it (EndedContractId, an array where a spot order is an object).
 */
export type EndedOrder = [seq: number, order: LedgerOrderRecord | EndedContractId];

/** An ended order as the ring holds it in memory: a spot order by its id (its record is read when written), a contract order as kept. */
export type EndedRef = string | EndedContractId;

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

/** What a snapshot writes of an ended order the ring holds, while it still holds its client id. */
export function endedRecord(state: LedgerState, ref: EndedRef): LedgerOrderRecord | EndedContractId | undefined {
  if (typeof ref === 'string') return endedHolding(state, ref);
  const [accountId, clientOrderId, orderId, finalTime] = ref;
  const holds =
    state.contractClientIds.get(accountId)?.get(clientOrderId) === orderId &&
    state.contractClientIdsEnded.get(accountId)?.get(clientOrderId) === finalTime;
  return holds ? ref : undefined;
}

/** How the ring holds an ended order read back. */
export function endedRefOf(order: LedgerOrderRecord | EndedContractId): EndedRef {
  return Array.isArray(order) ? order : order.orderId;
}

/**
 * The order an event ended holding its client id, if it did (the event folded). A contract order
 * leaves the fold as it ends: its client id is the one `ending` had before (see PartitionChanges.folding).
 */
export function endedBy(
  event: LedgerJournalEvent,
  state: LedgerState,
  ending: string | undefined,
): EndedRef | undefined {
  if (event.type === 'OrderOutcomeApplied' || event.type === 'TradeSettled') {
    const orderId = event.payload.order.orderId;
    return endedHolding(state, orderId) ? orderId : undefined;
  }
  if (ending === undefined || (event.type !== 'ContractOrderFilled' && event.type !== 'ContractOrderEnded'))
    return undefined;
  const { accountId } = event.payload;
  const finalTime = state.contractClientIdsEnded.get(accountId)?.get(ending);
  if (finalTime === undefined) return undefined;
  return endedRecord(state, [accountId, ending, event.payload.order.orderId, finalTime]) as EndedContractId | undefined;
}

/** Every ended order of the partition's users that holds its client id, each account's in the order they ended. */
export function endedOrdersOf(state: LedgerState, scope: PartitionScope): EndedRef[] {
  const ended: EndedRef[] = [];
  for (const user of state.users.values()) {
    if (scope.partitionOf(user.userId) !== scope.partition) continue;
    for (const accountId of user.accountIds) {
      const index = state.clientIds.get(accountId);
      for (const clientOrderId of state.clientIdsEnded.get(accountId)?.keys() ?? []) {
        const orderId = index?.get(clientOrderId);
        if (orderId !== undefined) ended.push(orderId);
      }
      const contractIndex = state.contractClientIds.get(accountId);
      for (const [clientOrderId, finalTime] of state.contractClientIdsEnded.get(accountId) ?? []) {
        const orderId = contractIndex?.get(clientOrderId);
        if (orderId !== undefined) ended.push([accountId, clientOrderId, orderId, finalTime]);
      }
    }
  }
  return ended;
}

/** An ended order's client id as restoreWindow puts it back. */
interface HeldId {
  accountId: string;
  clientOrderId: string;
  orderId: string;
  finalTime: number;
}

/**
 * Puts the ended orders of the ring back into a state whose shares are restored, as the fold held
 * them: an order is held unless its client id is held by an order of the shares (open, taken after
 * it) or by an order that ended after it; each account's come back in the order they ended, then
 * leave as the fold's eviction at the account's last placement (`evictedAt`) made them leave. Spot
 * and contract orders alike, each in its own window of client ids (an account places one kind).
 */
export function restoreEndedOrders(
  state: LedgerState,
  ended: readonly EndedOrder[],
  evictedAt: ReadonlyMap<string, number>,
): void {
  const sorted = [...ended].sort((a, b) => a[0] - b[0]);
  const spot: LedgerOrderRecord[] = [];
  const contract: HeldId[] = [];
  for (const [, order] of sorted)
    if (Array.isArray(order)) {
      const [accountId, clientOrderId, orderId, finalTime] = order;
      contract.push({ accountId, clientOrderId, orderId, finalTime });
    } else spot.push(order);
  restoreWindow(
    spotIds(state),
    spot as (LedgerOrderRecord & HeldId)[],
    evictedAt,
    (order) => setSpotOrder(state, order),
    (accountId, at) => evictEndedOrders(state, accountId, at),
  );
  restoreWindow(
    contractIds(state),
    contract,
    evictedAt,
    () => undefined,
    (accountId, at) => evictContractClientIds(state, accountId, at),
  );
}

function restoreWindow<T extends HeldId>(
  ids: ClientIdWindow,
  sorted: readonly T[],
  evictedAt: ReadonlyMap<string, number>,
  put: (order: T) => void,
  evict: (accountId: string, at: number) => void,
): void {
  const holder = new Map<string, T>();
  for (const order of sorted) holder.set(`${order.accountId}|${order.clientOrderId}`, order);
  const accounts = new Set<string>();
  for (const order of sorted) {
    const { accountId, clientOrderId, orderId } = order;
    if (holder.get(`${accountId}|${clientOrderId}`)?.orderId !== orderId) continue;
    let index = ids.index.get(accountId);
    if (!index) ids.index.set(accountId, (index = new Map()));
    if (index.has(clientOrderId) && index.get(clientOrderId) !== orderId) continue;
    let endedIds = ids.ended.get(accountId);
    if (!endedIds) ids.ended.set(accountId, (endedIds = new Map()));
    // An order written again (a duplicate outcome) keeps the place it ended in.
    if (endedIds.has(clientOrderId)) continue;
    index.set(clientOrderId, orderId);
    endedIds.set(clientOrderId, order.finalTime);
    put(order);
    accounts.add(accountId);
  }
  for (const accountId of accounts) {
    const at = evictedAt.get(accountId);
    if (at !== undefined) evict(accountId, at);
  }
}
