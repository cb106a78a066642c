import type { ContractEvent, ContractJournalEvent, ContractOrderRecord } from '@exchange/contracts';
import type { LedgerState } from '../ledger-state';
import { evolveContracts } from './contract-state';

/**
 * Folds a journaled contracts event into the ledger's state: the contracts fold itself, and the
 * index of open contract orders by client order id (an order leaves it when the fold drops it).
 */
export function evolveContractJournal(state: LedgerState, event: ContractJournalEvent): void {
  if (event.type === 'ContractOrderRested') return;
  const before = touchedOrder(state, event);
  evolveContracts(state.contracts, event as unknown as ContractEvent);
  if (event.type === 'ContractOrderPlaced') indexClientId(state, event.payload.order);
  else if (before && !state.contracts.orders.has(before.orderId)) unindexClientId(state, before);
}

function touchedOrder(state: LedgerState, event: ContractJournalEvent): ContractOrderRecord | undefined {
  if (event.type !== 'ContractOrderFilled' && event.type !== 'ContractOrderEnded') return undefined;
  return state.contracts.orders.get(event.payload.order.orderId);
}

export function indexClientId(state: LedgerState, order: ContractOrderRecord): void {
  if (order.clientOrderId === undefined) return;
  let index = state.contractClientIds.get(order.accountId);
  if (!index) state.contractClientIds.set(order.accountId, (index = new Map()));
  index.set(order.clientOrderId, order.orderId);
}

function unindexClientId(state: LedgerState, order: ContractOrderRecord): void {
  if (order.clientOrderId === undefined) return;
  const index = state.contractClientIds.get(order.accountId);
  if (index?.get(order.clientOrderId) !== order.orderId) return;
  index.delete(order.clientOrderId);
  if (index.size === 0) state.contractClientIds.delete(order.accountId);
}
