import type {
  ContractBalanceAfter,
  ContractConfig,
  ContractSide,
  FlowEntry,
  FlowTypeName,
  PositionAfter,
  PositionSide,
} from '@exchange/contracts';
import { Money } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import { liquidationPrice } from './contract-risk';
import type { ContractBalance, PositionState } from './contract-state';

/** What deciding a contract command needs besides the state: time, configuration, ids. */
export interface ContractContext {
  now: number;
  contract(symbol: string): ContractConfig | undefined;
  /** The margin token's (USDT's) precision: every amount a balance holds has at most these decimals. */
  marginPrecision: number;
  /** Where fees go: the fee account of the partition that decides the command. */
  feeAccountId: string;
  /** The id of the k-th flow entry this command creates; derived from the command's log position. */
  flowId(k: number): string;
  /** How many flow ids the decision has taken so far (sequenced gives it): what a budget of flows is checked against. */
  flowsTaken?(): number;
  /** The id of the k-th order this command creates (the insurance fund's closing orders), a positive integer. */
  orderId(k: number): string;
  /** The insurance fund's contracts account: it takes liquidated positions over and keeps funding's remainders. */
  insurance: { userId: string; accountId: string };
  /**
   * Whether the partition deciding the command holds this account. A price or funding command
   * reaches every partition, and each acts on its own accounts only (absent: every account).
   */
  owns?(accountId: string): boolean;
  /**
   * The partition's funding clearing account: what its payers pay beyond what its receivers get
   * goes there, for receivers in other partitions (see settleFunding). It alone may go negative.
   */
  clearingAccountId?: string;
  /**
   * The deciding partition's number and how many there are: with more than one, a bankrupt
   * position the fund cannot cover is deleveraged across them (contract-adl.ts). Absent: one.
   */
  partitions?: { index: number; count: number };
}

/** Whether the deciding partition acts on the account (see ContractContext.owns). */
export function ownedBy(ctx: ContractContext, accountId: string): boolean {
  return ctx.owns?.(accountId) ?? true;
}

/**
 * The context a decider hands out: flow and order ids numbered in the order they are asked for, so
 * a decision made of several steps (a liquidation cascade) never gives two flows the same id.
 */
export function sequenced(ctx: ContractContext): ContractContext {
  let [flows, orders] = [0, 0];
  return {
    ...ctx,
    flowId: () => ctx.flowId(flows++),
    flowsTaken: () => flows,
    orderId: () => ctx.orderId(orders++),
  };
}

export const MARGIN_TOKEN = 'USDT';

export function positionSideOf(side: ContractSide): PositionSide {
  return side === 'BUY_OPEN' || side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
}

export function isOpening(side: ContractSide): boolean {
  return side === 'BUY_OPEN' || side === 'SELL_OPEN';
}

export function requireContract(ctx: ContractContext, symbol: string): ContractConfig {
  const config = ctx.contract(symbol);
  if (!config) throw new LedgerRejection(RejectCode.INVALID_SYMBOL, `Invalid symbol '${symbol}'.`);
  return config;
}

/** Rounds up to the margin token's precision: what an account pays, or must hold, never falls short. */
export function roundUp(ctx: ContractContext, amount: Money): Money {
  return amount.toDecimalPlaces(ctx.marginPrecision, Money.ROUND_UP);
}

/** Rounds down: a share released early is never more than its part (the last share takes the rest). */
export function roundDown(ctx: ContractContext, amount: Money): Money {
  return amount.toDecimalPlaces(ctx.marginPrecision, Money.ROUND_DOWN);
}

/** A positive decimal that is a whole number of `step`s, else -1130 naming the parameter. */
export function parseSteps(text: string, step: string, param: string): Money {
  const value = new Money(text);
  if (value.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': must be greater than zero.`,
    );
  if (!value.mod(step).isZero())
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': must be a multiple of ${step}.`,
    );
  return value;
}

export function balanceAfter(accountId: string, b: ContractBalance): ContractBalanceAfter {
  return { accountId, free: b.free.toFixed(), locked: b.locked.toFixed(), positionMargin: b.positionMargin.toFixed() };
}

export function totalOf(b: ContractBalance): Money {
  return b.free.plus(b.locked).plus(b.positionMargin);
}

/** The position as events report it; avgPrice is shown to the margin token's precision, entryValue is exact. */
export function positionAfter(p: PositionState, config: ContractConfig, ctx: ContractContext): PositionAfter {
  const avgPrice = p.size.isZero()
    ? new Money(0)
    : p.entryValue
        .div(p.size.times(config.contractMultiplier))
        .toDecimalPlaces(ctx.marginPrecision, Money.ROUND_HALF_UP);
  // With neither a position nor an order opening one, the next OPEN order may choose its leverage afresh.
  const leverage = p.size.isZero() && p.opening.isZero() ? new Money(0) : p.leverage;
  return {
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    size: p.size.toFixed(),
    available: p.size.minus(p.closing).toFixed(),
    opening: p.opening.toFixed(),
    entryValue: p.entryValue.toFixed(),
    avgPrice: avgPrice.toFixed(),
    margin: p.margin.toFixed(),
    realizedPnl: p.realizedPnl.toFixed(),
    leverage: leverage.toFixed(),
    flp: (p.accountId === ctx.insurance.accountId
      ? new Money(0)
      : liquidationPrice(p, config, ctx.marginPrecision)
    ).toFixed(),
  };
}

export function flowEntry(
  ctx: ContractContext,
  k: number,
  accountId: string,
  flowType: FlowTypeName,
  change: Money,
  totalAfter: Money,
): FlowEntry {
  return {
    flowId: ctx.flowId(k),
    accountId,
    asset: MARGIN_TOKEN,
    flowType,
    change: change.toFixed(),
    total: totalAfter.toFixed(),
  };
}

/** A settlement that does not fit the order it names is an upstream bug: refused whole, never half-applied. */
export function internal(message: string): LedgerRejection {
  return new LedgerRejection(RejectCode.INTERNAL, `Contract settlement refused: ${message}.`);
}
