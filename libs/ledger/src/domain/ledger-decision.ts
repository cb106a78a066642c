import type { AccountState, LedgerState } from './ledger-state';
import type {
  AssetConfig,
  BalanceAfter,
  ContractConfig,
  FlowEntry,
  FlowTypeName,
  LedgerJournalEvent,
  SymbolConfig,
} from '@exchange/contracts';
import { Money } from './ledger-money';
import { LedgerRejection, RejectCode } from './ledger-rejection';

export interface DecisionContext {
  now: number;
  /** The id of the k-th flow entry this command creates; derived from the command's log position. */
  flowId(k: number): string;
  asset(name: string): AssetConfig | undefined;
  /** Trading commands only (see TradingContext). */
  symbol?(name: string): SymbolConfig | undefined;
  /** Trading commands only: the fee account of the partition that decides the command. */
  feeAccountId?: string;
  /** Contract commands, and settlements and transfers that may concern contracts. */
  contract?(name: string): ContractConfig | undefined;
  /** The deciding partition's own accounts and ids: price, funding and seeding commands need them. */
  partition?: PartitionContext;
}

/**
 * A ledger partition's system side. Prices and funding reach every partition as commands of no
 * user; each partition decides them for the accounts it holds and journals them under its system
 * user (a user id that maps to the partition, so its journal stays in the partition's stream).
 */
export interface PartitionContext {
  userId: string;
  /** The partition's share of the insurance fund (the fund is the sum of them). */
  insuranceAccountId: string;
  /** Where funding's cross-partition difference goes (see settleFunding). */
  clearingAccountId: string;
  /** The k-th order the command creates (the fund's closing orders). */
  orderId(k: number): string;
  /** The sequence of the index-th event of the system user, from the command's log position (it has no state to count in). */
  seq(index: number): number;
  owns(accountId: string): boolean;
  /** The partition's number and the ledger's partition count (auto-deleveraging asks the others); absent in single-partition tests. */
  index?: number;
  count?: number;
}

/** What deciding a trading command needs besides the account context. */
export interface TradingContext extends DecisionContext {
  symbol(name: string): SymbolConfig | undefined;
  feeAccountId: string;
}

/** An event before the envelope fields decide() adds: userId, seq, commandId. */
export type Draft = {
  [K in LedgerJournalEvent['type']]: {
    type: K;
    payload: Omit<Extract<LedgerJournalEvent, { type: K }>['payload'], 'userId' | 'seq' | 'commandId'>;
  };
}[LedgerJournalEvent['type']];

export interface BalanceState {
  free: Money;
  locked: Money;
}

export function tradingContext(ctx: DecisionContext): TradingContext {
  // A wiring error, not a business rejection: it must fail the batch, not be journaled.
  if (ctx.symbol === undefined || ctx.feeAccountId === undefined)
    throw new Error('ledger: trading commands need ctx.symbol and ctx.feeAccountId');
  return ctx as TradingContext;
}

export function requireUser(state: LedgerState, userId: string) {
  const user = state.users.get(userId);
  if (!user) throw new LedgerRejection(RejectCode.INVALID_VALUE, `User ${userId} does not exist.`);
  return user;
}

export function requireAccountOf(state: LedgerState, userId: string, accountId: string): AccountState {
  const account = state.accounts.get(accountId);
  if (!account || account.record.userId !== userId)
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `Account ${accountId} does not exist.`);
  return account;
}

export function requireAsset(ctx: DecisionContext, asset: string): AssetConfig {
  const config = ctx.asset(asset);
  if (!config) throw new LedgerRejection(RejectCode.INVALID_VALUE, `Unknown asset '${asset}'.`);
  return config;
}

/** A positive amount with no more decimals than the asset allows; never rounded. */
export function parseAmount(text: string, asset: AssetConfig, param: string): Money {
  if (!/^\d+(\.\d+)?$/.test(text) || text.length > 60)
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': expected a plain decimal number.`,
    );
  const amount = new Money(text);
  if (amount.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': must be greater than zero.`,
    );
  if (amount.decimalPlaces() > asset.precision) {
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': ${asset.asset} allows at most ${asset.precision} decimals.`,
    );
  }
  return amount;
}

export function flow(
  ctx: DecisionContext,
  k: number,
  accountId: string,
  asset: string,
  flowType: FlowTypeName,
  change: Money,
  after: BalanceState,
): FlowEntry {
  return {
    flowId: ctx.flowId(k),
    accountId,
    asset,
    flowType,
    change: change.toFixed(),
    total: after.free.plus(after.locked).toFixed(),
  };
}

export function balanceAfter(accountId: string, asset: string, after: BalanceState): BalanceAfter {
  return { accountId, asset, free: after.free.toFixed(), locked: after.locked.toFixed() };
}
