import { changedOrder, isContractJournalEvent, placedOrder } from '@exchange/contracts';
import type {
  AccountRecord,
  BalanceAfter,
  LedgerJournalEvent,
  LedgerOrderRecord,
  LedgerOrderStatus,
  LedgerWithdrawalRecord,
  OrderOutcomeApplied,
  Permission,
  TradeSettled,
} from '@exchange/contracts';
import { Money } from './ledger-money';
import { type ContractsState, initialContractsState } from './contracts/contract-state';
import { evolveContractJournal } from './contracts/contract-journal-fold';
import { type ClientIdWindow, endClientId, evictEndedClientIds, takeClientId } from './client-id-window';

export interface Balance {
  free: Money;
  locked: Money;
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
  /**
   * The ledger's side of every order that is open or final for less than the client-id window, by
   * orderId: the last record an event carried (trades are not kept: they go to the projection).
   */
  orders: Map<string, LedgerOrderRecord>;
  /**
   * Per account, the orderIds of its open orders among `orders` (derived: written only by
   * setSpotOrder and deleteSpotOrder), so a snapshot of an account finds them without walking the
   * client ids its final orders hold for the window: a busy account's are mostly those.
   */
  openOrderIds: Map<string, Set<string>>;
  /** Per account, clientOrderId → orderId of the order that holds it (open, or final within the window). */
  clientIds: Map<string, Map<string, string>>;
  /**
   * Per account, clientOrderId → the finalTime of its order, for the final orders that still hold
   * their id, in the order they became final: eviction reads from the front, so an order resting
   * for days (placed before them, at the front of clientIds) holds back nothing.
   */
  clientIdsEnded: Map<string, Map<string, number>>;
  /** Every withdrawal of the users, by withdrawalId (few per user: kept for good). */
  withdrawals: Map<string, LedgerWithdrawalRecord>;
  /** Per account, clientOrderId → withdrawalId: a withdrawal's client id is never reused. */
  withdrawalClientIds: Map<string, Map<string, string>>;
  /**
   * How long a final order keeps its client id (API-DECISIONS: the retry window). Part of the
   * state because eviction is a fold step: a replay must evict what the live fold evicted.
   */
  clientIdWindowMs: number;
  /** The contracts accounts' USDT, positions and open contract orders (the contracts domain's fold). */
  contracts: ContractsState;
  /** Per contracts account, clientOrderId → orderId of the contract order that holds it (open, or ended within the window). */
  contractClientIds: Map<string, Map<string, string>>;
  /**
   * Per contracts account, clientOrderId → when its order ended (the event's time), for the ended
   * orders that still hold their id, in the order they ended: eviction reads from the front, so an
   * order left open for days holds back nothing (the fold drops ended orders; these are what is left).
   */
  contractClientIdsEnded: Map<string, Map<string, number>>;
}

/** A client order id stays taken while its order is open and this long after it is final. */
export const DEFAULT_CLIENT_ID_WINDOW_MS = 10 * 60 * 1000;

export function initialLedgerState(clientIdWindowMs = DEFAULT_CLIENT_ID_WINDOW_MS): LedgerState {
  return {
    users: new Map(),
    accounts: new Map(),
    apiKeys: new Map(),
    orders: new Map(),
    openOrderIds: new Map(),
    clientIds: new Map(),
    clientIdsEnded: new Map(),
    withdrawals: new Map(),
    withdrawalClientIds: new Map(),
    clientIdWindowMs,
    contracts: initialContractsState(),
    contractClientIds: new Map(),
    contractClientIdsEnded: new Map(),
  };
}

const finalStatuses: ReadonlySet<LedgerOrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED']);

export function isFinal(order: LedgerOrderRecord): boolean {
  return finalStatuses.has(order.status);
}

/** A partition's fee account exists from the first fee it receives, as the deciding side created it. */
function ensureFeeAccount(state: LedgerState, feeAccountId: string): void {
  if (!state.accounts.has(feeAccountId)) addAccount(state, feeAccountRecord(feeAccountId));
}

/** The fee account of a ledger partition: one per partition, so a fee is decided where the trade leg is. */
export function feeAccountRecord(accountId: string): AccountRecord {
  return { accountId, userId: '0', accountType: 1, accountIndex: 0, accountName: 'fees' };
}

export const defaultFlags: AccountFlags = { canTrade: true, canWithdraw: true, canDeposit: true };

/** The balance of an asset, for reading: a missing one is zero, and nothing is added to the account. */
export function peekBalance(account: AccountState | undefined, asset: string): Balance {
  return account?.balances.get(asset) ?? { free: new Money(0), locked: new Money(0) };
}

export function evolve(state: LedgerState, event: LedgerJournalEvent): LedgerState {
  const user = state.users.get(event.payload.userId);
  if (user) user.seq = event.payload.seq;
  if (isContractJournalEvent(event)) {
    evolveContractJournal(state, event);
    return state;
  }
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
      applyBalances(state, event.payload.balances);
      return state;
    case 'OrderPlaced':
      evictEndedOrders(state, event.payload.order.accountId, event.ts);
      putOrder(state, placedOrder(event));
      applyBalances(state, event.payload.balances);
      return state;
    case 'OrderCancelRequested':
      putOrder(state, event.payload.order);
      return state;
    case 'OrderOutcomeApplied':
      changeOrder(state, event);
      applyBalances(state, event.payload.balances);
      return state;
    case 'TradeSettled':
      ensureFeeAccount(state, event.payload.feeAccountId);
      changeOrder(state, event);
      applyBalances(state, event.payload.balances);
      return state;
    case 'AccountFlagsSet': {
      const account = state.accounts.get(event.payload.accountId);
      if (account)
        account.flags = {
          canTrade: event.payload.canTrade,
          canWithdraw: event.payload.canWithdraw,
          canDeposit: event.payload.canDeposit,
        };
      return state;
    }
    case 'WithdrawalHeld':
    case 'WithdrawalReleased':
      putWithdrawal(state, event.payload.withdrawal);
      applyBalances(state, event.payload.balances);
      return state;
    case 'WithdrawalSettled':
      ensureFeeAccount(state, event.payload.feeAccountId);
      putWithdrawal(state, event.payload.withdrawal);
      applyBalances(state, event.payload.balances);
      return state;
    case 'WithdrawalRepeated':
    case 'CommandRejected':
      return state;
    default: {
      const unexpected: never = event;
      throw new Error(`ledger: unknown event ${(unexpected as LedgerJournalEvent).type}`);
    }
  }
}

function applyBalances(state: LedgerState, balances: readonly BalanceAfter[]): void {
  for (const b of balances) {
    const account = state.accounts.get(b.accountId);
    if (account) account.balances.set(b.asset, { free: new Money(b.free), locked: new Money(b.locked) });
  }
}

/** An order takes (or keeps) its client id; an ended order whose window had passed and that still held it leaves. */
export function putOrder(state: LedgerState, order: LedgerOrderRecord): void {
  setSpotOrder(state, order);
  const displaced = takeClientId(spotIds(state), order.accountId, order.clientOrderId, order.orderId);
  if (displaced !== undefined && state.orders.get(displaced)?.finalTime !== undefined)
    deleteSpotOrder(state, displaced);
}

/** Holds the order's record, its account's open orders kept in step. */
export function setSpotOrder(state: LedgerState, order: LedgerOrderRecord): void {
  state.orders.set(order.orderId, order);
  const open = state.openOrderIds.get(order.accountId);
  if (order.finalTime !== undefined) {
    if (open?.delete(order.orderId) && open.size === 0) state.openOrderIds.delete(order.accountId);
  } else if (open) open.add(order.orderId);
  else state.openOrderIds.set(order.accountId, new Set([order.orderId]));
}

/** Forgets the order's record, its account's open orders kept in step. */
export function deleteSpotOrder(state: LedgerState, orderId: string): void {
  const order = state.orders.get(orderId);
  if (!order) return;
  state.orders.delete(orderId);
  const open = state.openOrderIds.get(order.accountId);
  if (open?.delete(orderId) && open.size === 0) state.openOrderIds.delete(order.accountId);
}

/**
 * Queues the final orders' client ids by when they became final: for state loaded from where the
 * order they ended in is not kept (the tables, a snapshot taken before the queue was).
 */
export function queueFinalOrders(state: LedgerState, orders: readonly LedgerOrderRecord[]): void {
  const final = orders.flatMap((o) => (o.finalTime === undefined ? [] : [{ o, finalTime: o.finalTime }]));
  final.sort((a, b) => a.finalTime - b.finalTime);
  for (const { o, finalTime } of final) endClientId(spotIds(state), o.accountId, o.clientOrderId, o.orderId, finalTime);
}

export function spotIds(state: LedgerState): ClientIdWindow {
  return { index: state.clientIds, ended: state.clientIdsEnded };
}

/** An order's record held since its placement (open orders are all held, snapshot included), with what the event moved. */
function changeOrder(state: LedgerState, event: TradeSettled | OrderOutcomeApplied): void {
  const order = state.orders.get(event.payload.order.orderId);
  if (!order)
    throw new Error(
      `ledger: ${event.type} ${event.id} names order ${event.payload.order.orderId}, which the state does not hold`,
    );
  const changed = changedOrder(order, event);
  setSpotOrder(state, changed);
  if (changed.finalTime !== undefined)
    endClientId(spotIds(state), changed.accountId, changed.clientOrderId, changed.orderId, changed.finalTime);
}

export function putWithdrawal(state: LedgerState, withdrawal: LedgerWithdrawalRecord): void {
  state.withdrawals.set(withdrawal.withdrawalId, withdrawal);
  let index = state.withdrawalClientIds.get(withdrawal.accountId);
  if (!index) state.withdrawalClientIds.set(withdrawal.accountId, (index = new Map()));
  index.set(withdrawal.clientOrderId, withdrawal.withdrawalId);
}

/**
 * When an account places an order, its orders final for the window or more leave the hot state with
 * their client ids, whatever orders it holds open. An account that never places again keeps its
 * last final orders; they are few. (A snapshot's restore repeats the account's last eviction.)
 */
export function evictEndedOrders(state: LedgerState, accountId: string, now: number): void {
  evictEndedClientIds(spotIds(state), accountId, now, state.clientIdWindowMs, (orderId) =>
    deleteSpotOrder(state, orderId),
  );
}

function addAccount(state: LedgerState, record: AccountRecord): void {
  state.accounts.set(record.accountId, { record, flags: { ...defaultFlags }, balances: new Map() });
}
