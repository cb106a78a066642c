import type { ContractEvent, ContractJournalEvent, ContractOrderRecord } from '@exchange/contracts';
import {
  type ClientIdWindow,
  endClientId as endHeldClientId,
  evictEndedClientIds,
  holdsClientId,
  takeClientId,
} from '../client-id-window';
import type { LedgerState } from '../ledger-state';
import { evolveContracts } from './contract-state';

/**
 * Folds a journaled contracts event into the ledger's state: the contracts fold itself, and the
 * client-id index of contract orders. An order keeps its client id while open (the fold holds it)
 * and for the retry window after it ends, as a spot order does; the ended ones go when their account
 * places its next order after the window.
 */
export function evolveContractJournal(state: LedgerState, event: ContractJournalEvent): void {
  if (event.type === 'ContractOrderRested') return;
  const before = touchedOrder(state, event);
  evolveContracts(state.contracts, event as unknown as ContractEvent);
  if (event.type === 'ContractOrderPlaced') {
    evictContractClientIds(state, event.payload.order.accountId, event.ts);
    indexClientId(state, event.payload.order);
  } else if (before && !state.contracts.orders.has(before.orderId)) endClientId(state, before, event.ts);
}

/** Whether a contract order of the account holds the client id at `now` (open, or ended within the window). */
export function holdsContractClientId(
  state: LedgerState,
  accountId: string,
  clientOrderId: string,
  now: number,
): boolean {
  const orderId = state.contractClientIds.get(accountId)?.get(clientOrderId);
  if (orderId === undefined) return false;
  if (state.contracts.orders.has(orderId)) return true;
  const finalTime = state.contractClientIdsEnded.get(accountId)?.get(clientOrderId);
  return finalTime !== undefined && holdsClientId({ finalTime }, now, state.clientIdWindowMs);
}

function touchedOrder(state: LedgerState, event: ContractJournalEvent): ContractOrderRecord | undefined {
  if (event.type !== 'ContractOrderFilled' && event.type !== 'ContractOrderEnded') return undefined;
  return state.contracts.orders.get(event.payload.order.orderId);
}

/** An open order takes its client id (from an ended order whose window has passed, if one still had it). */
export function indexClientId(state: LedgerState, order: ContractOrderRecord): void {
  if (order.clientOrderId !== undefined)
    takeClientId(contractIds(state), order.accountId, order.clientOrderId, order.orderId);
}

/** An ended order keeps its client id from `finalTime` on, for the window (see evictEndedClientIds). */
export function endClientId(state: LedgerState, order: ContractOrderRecord, finalTime: number): void {
  if (order.clientOrderId !== undefined)
    endHeldClientId(contractIds(state), order.accountId, order.clientOrderId, order.orderId, finalTime);
}

/** When an account places a contract order, its orders ended for the window or more free their client ids (a snapshot's restore repeats the account's last eviction). */
export function evictContractClientIds(state: LedgerState, accountId: string, now: number): void {
  evictEndedClientIds(contractIds(state), accountId, now, state.clientIdWindowMs);
}

export function contractIds(state: LedgerState): ClientIdWindow {
  return { index: state.contractClientIds, ended: state.contractClientIdsEnded };
}
