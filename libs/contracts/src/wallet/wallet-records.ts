import type { WithdrawalRequestFields } from '../ledger/ledger-withdrawal-commands';
import type { WithdrawalStatusCode } from './withdrawal-status';

/** One step of a withdrawal's life: from → to (from is 0 for its creation), and when. */
export interface WithdrawalTransition {
  from: WithdrawalStatusCode | 0;
  to: WithdrawalStatusCode;
  time: number;
}

/** The wallet's record of a withdrawal, as every event about it carries it (projections upsert it). */
export interface WithdrawalRecord extends WithdrawalRequestFields {
  status: WithdrawalStatusCode;
  /** When the ledger held the funds, ms. */
  time: number;
  updateTime: number;
  requiredConfirmations: number;
  confirmations: number;
  txid: string;
  /** Why an operator rejected it, or why the chain failed it. */
  reason: string;
  history: WithdrawalTransition[];
}

/** CONFIRMING until the asset's confirmations are reached, then CREDITED (once). */
export type DepositStatus = 'CONFIRMING' | 'CREDITED';

export interface DepositRecord {
  depositId: string;
  userId: string;
  accountId: string;
  asset: string;
  chainType: string;
  address: string;
  addressTag: string;
  fromAddress: string;
  fromAddressTag: string;
  txid: string;
  quantity: string;
  confirmations: number;
  requiredConfirmations: number;
  status: DepositStatus;
  /** First seen, ms. */
  time: number;
  /** Credited to the ledger, ms. */
  creditTime?: number;
}

/** An entry of an account's withdrawal address book: the only addresses it may withdraw to. */
export interface WithdrawalAddressEntry {
  id: string;
  userId: string;
  accountId: string;
  tokenId: string;
  chainType: string;
  address: string;
  addressExt: string;
  created: number;
}
