import type { DepositRecord, WalletEvent, WithdrawalAddressEntry, WithdrawalRecord } from '@exchange/contracts';

/**
 * What the wallet decides against: the fold of its journal for the records a batch of commands
 * names (the processor loads them from the projection; a replay folds every event). Mutated in
 * place by `evolve`, as the ledger's state is.
 */
export interface WalletState {
  withdrawals: Map<string, WithdrawalRecord>;
  /** By depositKey(): one deposit per asset, chain, transaction and receiving address. */
  deposits: Map<string, DepositRecord>;
  /** Address-book entries by id. */
  addresses: Map<string, WithdrawalAddressEntry>;
}

export function initialWalletState(): WalletState {
  return { withdrawals: new Map(), deposits: new Map(), addresses: new Map() };
}

/** How the chain names one deposit: the same transaction reported again is the same deposit. */
export function depositKey(d: { asset: string; chainType: string; txid: string; address: string }): string {
  return `${d.asset}|${d.chainType}|${d.txid}|${d.address}`;
}

export function evolve(state: WalletState, event: WalletEvent): WalletState {
  switch (event.type) {
    case 'WithdrawalTracked':
    case 'WithdrawalAdvanced':
    case 'WithdrawalConfirmationsUpdated':
      state.withdrawals.set(event.payload.withdrawal.withdrawalId, event.payload.withdrawal);
      return state;
    case 'DepositReported':
      state.deposits.set(depositKey(event.payload.deposit), event.payload.deposit);
      return state;
    case 'WithdrawalAddressAdded':
      state.addresses.set(event.payload.entry.id, event.payload.entry);
      return state;
    case 'WithdrawalAddressRemoved':
      state.addresses.delete(event.payload.entry.id);
      return state;
    case 'WalletCommandRejected':
      return state;
    default: {
      const unexpected: never = event;
      throw new Error(`wallet: unknown event ${(unexpected as WalletEvent).type}`);
    }
  }
}
