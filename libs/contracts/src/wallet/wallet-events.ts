import type { DepositRecord, WithdrawalAddressEntry, WithdrawalRecord, WithdrawalTransition } from './wallet-records';

/**
 * Events on `wallet.events`, keyed by userId: the wallet's journal, one event per command it
 * decided. Every withdrawal event carries the whole record after it and the transitions it made
 * (automatic approval records 1→3 and 3→5 in one event), so projections upsert and the gateway
 * answers from one event.
 */
export interface WalletEventBase<TType extends string, TPayload> {
  type: TType;
  v: 1;
  /** `<commandId>:0`: stable across redelivery of the command. */
  id: string;
  ts: number;
  payload: TPayload & { userId: string; commandId: string };
}

export type WithdrawalTracked = WalletEventBase<'WithdrawalTracked', { withdrawal: WithdrawalRecord; transitions: WithdrawalTransition[] }>;
/** An audit approval, a rejection, or the chain's report moved the withdrawal on. */
export type WithdrawalAdvanced = WalletEventBase<'WithdrawalAdvanced', { withdrawal: WithdrawalRecord; transitions: WithdrawalTransition[] }>;
/** More confirmations of a mined withdrawal, not yet enough: no status change. */
export type WithdrawalConfirmationsUpdated = WalletEventBase<'WithdrawalConfirmationsUpdated', { withdrawal: WithdrawalRecord }>;
/** A deposit seen (again): credited is true on the one report that credited it. */
export type DepositReported = WalletEventBase<'DepositReported', { deposit: DepositRecord; credited: boolean; repeated: boolean }>;
export type WithdrawalAddressAdded = WalletEventBase<'WithdrawalAddressAdded', { entry: WithdrawalAddressEntry }>;
export type WithdrawalAddressRemoved = WalletEventBase<'WithdrawalAddressRemoved', { entry: WithdrawalAddressEntry }>;
/** A command the wallet refused (an audit of a withdrawal that is not waiting for one, …), with the family's code. */
export type WalletCommandRejected = WalletEventBase<'WalletCommandRejected', { commandType: string; code: number; msg: string }>;

export type WalletEvent =
  | WithdrawalTracked
  | WithdrawalAdvanced
  | WithdrawalConfirmationsUpdated
  | DepositReported
  | WithdrawalAddressAdded
  | WithdrawalAddressRemoved
  | WalletCommandRejected;
export type WalletEventType = WalletEvent['type'];
