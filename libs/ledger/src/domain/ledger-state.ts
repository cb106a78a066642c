import Decimal from 'decimal.js';
import type { AccountRecord, LedgerEvent, Permission } from '@exchange/contracts';

export interface Balance {
  free: Decimal;
  locked: Decimal;
}

export interface AccountFlags {
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
}

export interface AccountState {
  record: AccountRecord;
  flags: AccountFlags;
  balances: Map<string, Balance>;
}

export interface UserState {
  userId: string;
  name: string;
  /** Sequence number of the user's last event; the next event gets seq + 1. */
  seq: number;
  accountIds: string[];
}

export interface ApiKeyState {
  apiKey: string;
  accountId: string;
  userId: string;
  permissions: Permission[];
  revoked: boolean;
}

/**
 * The ledger's hot state: the fold of its journal for the users of the partitions it owns. It is
 * mutated in place by `evolve` (as exchange-core's risk engine is): copying maps of balances per
 * event would cap throughput, and nothing outside the fold holds a reference to it.
 */
export interface LedgerState {
  users: Map<string, UserState>;
  accounts: Map<string, AccountState>;
  apiKeys: Map<string, ApiKeyState>;
}

export function initialLedgerState(): LedgerState {
  return { users: new Map(), accounts: new Map(), apiKeys: new Map() };
}

export const defaultFlags: AccountFlags = { canTrade: true, canWithdraw: true, canDeposit: true };

export function balanceOf(account: AccountState, asset: string): Balance {
  let balance = account.balances.get(asset);
  if (!balance) {
    balance = { free: new Decimal(0), locked: new Decimal(0) };
    account.balances.set(asset, balance);
  }
  return balance;
}

export function evolve(state: LedgerState, event: LedgerEvent): LedgerState {
  const user = state.users.get(event.payload.userId);
  if (user) user.seq = event.payload.seq;
  switch (event.type) {
    case 'UserCreated': {
      state.users.set(event.payload.userId, {
        userId: event.payload.userId,
        name: event.payload.name,
        seq: event.payload.seq,
        accountIds: event.payload.accounts.map((a) => a.accountId),
      });
      for (const record of event.payload.accounts) addAccount(state, record);
      return state;
    }
    case 'SubAccountCreated':
      addAccount(state, event.payload.account);
      user?.accountIds.push(event.payload.account.accountId);
      return state;
    case 'ApiKeyCreated':
      state.apiKeys.set(event.payload.apiKey, {
        apiKey: event.payload.apiKey,
        accountId: event.payload.accountId,
        userId: event.payload.userId,
        permissions: event.payload.permissions,
        revoked: false,
      });
      return state;
    case 'ApiKeyRevoked': {
      const key = state.apiKeys.get(event.payload.apiKey);
      if (key) key.revoked = true;
      return state;
    }
    case 'DepositCredited':
    case 'FundsTransferred':
      for (const b of event.payload.balances) {
        const account = state.accounts.get(b.accountId);
        if (account) account.balances.set(b.asset, { free: new Decimal(b.free), locked: new Decimal(b.locked) });
      }
      return state;
    case 'AccountFlagsSet': {
      const account = state.accounts.get(event.payload.accountId);
      if (account) account.flags = { canTrade: event.payload.canTrade, canWithdraw: event.payload.canWithdraw, canDeposit: event.payload.canDeposit };
      return state;
    }
    case 'CommandRejected':
      return state;
    default: {
      const unexpected: never = event;
      throw new Error(`ledger: unknown event ${(unexpected as LedgerEvent).type}`);
    }
  }
}

function addAccount(state: LedgerState, record: AccountRecord): void {
  state.accounts.set(record.accountId, { record, flags: { ...defaultFlags }, balances: new Map() });
}
