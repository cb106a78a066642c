import type { AccountType, Permission } from './ledger-commands';
import type { FlowTypeName } from './balance-flow-types';

/**
 * Events on `ledger.events`, keyed by userId: the ledger's journal. Every event names the command
 * that caused it and carries the user's sequence number, so a consumer can order and deduplicate.
 */
export interface LedgerEventBase<TType extends string, TPayload, V extends number = 1> {
  type: TType;
  v: V;
  /** `<commandId>:<index>`: stable across redelivery of the command. */
  id: string;
  ts: number;
  payload: TPayload & { userId: string; seq: number; commandId: string };
}

export interface AccountRecord {
  accountId: string;
  userId: string;
  accountType: AccountType;
  accountIndex: number;
  accountName: string;
}

/** One balance-flow entry: a signed change of one asset of one account, and the total after it. */
export interface FlowEntry {
  flowId: string;
  accountId: string;
  asset: string;
  flowType: FlowTypeName;
  change: string;
  /** free + locked after the change. */
  total: string;
}

/** The new free and locked amounts of a balance an event touched. */
export interface BalanceAfter {
  accountId: string;
  asset: string;
  free: string;
  locked: string;
}

export type UserCreated = LedgerEventBase<'UserCreated', { name: string; accounts: AccountRecord[] }>;
export type SubAccountCreated = LedgerEventBase<'SubAccountCreated', { account: AccountRecord }>;
export type ApiKeyCreated = LedgerEventBase<
  'ApiKeyCreated',
  { apiKey: string; accountId: string; secretCiphertext: string; permissions: Permission[] }
>;
export type ApiKeyRevoked = LedgerEventBase<'ApiKeyRevoked', { apiKey: string; accountId: string }>;
export type DepositCredited = LedgerEventBase<
  'DepositCredited',
  { depositId: string; accountId: string; asset: string; amount: string; flows: FlowEntry[]; balances: BalanceAfter[] }
>;
export type FundsTransferred = LedgerEventBase<
  'FundsTransferred',
  {
    transferId: string;
    fromAccountId: string;
    toAccountId: string;
    asset: string;
    amount: string;
    flows: FlowEntry[];
    balances: BalanceAfter[];
  }
>;
/** What an account may do; every account starts with all three. */
export interface AccountFlags {
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
}
export type AccountFlagsSet = LedgerEventBase<'AccountFlagsSet', { accountId: string } & AccountFlags>;
export type CommandRejected = LedgerEventBase<'CommandRejected', { commandType: string; code: number; msg: string }>;

export type LedgerEvent =
  | UserCreated
  | SubAccountCreated
  | ApiKeyCreated
  | ApiKeyRevoked
  | DepositCredited
  | FundsTransferred
  | AccountFlagsSet
  | CommandRejected;
export type LedgerEventType = LedgerEvent['type'];
