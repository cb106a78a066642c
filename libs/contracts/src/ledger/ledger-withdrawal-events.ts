import type { BalanceAfter, FlowEntry, LedgerEventBase } from './ledger-events';
import type { WithdrawalRequestFields } from './ledger-withdrawal-commands';

/** HELD while quantity + fee sit in locked; SETTLED once debited; RELEASED once returned to free. */
export type LedgerWithdrawalStatus = 'HELD' | 'SETTLED' | 'RELEASED';

/** The ledger's side of a withdrawal: the hold, and the client id it keeps taken. */
export interface LedgerWithdrawalRecord extends WithdrawalRequestFields {
  status: LedgerWithdrawalStatus;
  time: number;
  updateTime: number;
}

/** Funds moved from free to locked for the withdrawal: no flow entry (the total is unchanged). */
export type WithdrawalHeld = LedgerEventBase<
  'WithdrawalHeld',
  { withdrawal: LedgerWithdrawalRecord; flows: FlowEntry[]; balances: BalanceAfter[] }
>;
/** The same clientOrderId with the same parameters: the request names the existing withdrawal. */
export type WithdrawalRepeated = LedgerEventBase<
  'WithdrawalRepeated',
  { withdrawalId: string; accountId: string; clientOrderId: string }
>;
/** Locked debited: a WITHDRAW flow for the quantity, FEE flows for the fee (user and fee account). */
export type WithdrawalSettled = LedgerEventBase<
  'WithdrawalSettled',
  { withdrawal: LedgerWithdrawalRecord; feeAccountId: string; flows: FlowEntry[]; balances: BalanceAfter[] }
>;
/** Locked returned to free after a rejection or a failure: no flow entry. */
export type WithdrawalReleased = LedgerEventBase<
  'WithdrawalReleased',
  { withdrawal: LedgerWithdrawalRecord; flows: FlowEntry[]; balances: BalanceAfter[] }
>;

export type LedgerWithdrawalEvent = WithdrawalHeld | WithdrawalRepeated | WithdrawalSettled | WithdrawalReleased;
