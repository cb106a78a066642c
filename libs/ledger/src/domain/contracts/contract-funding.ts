import type {
  ContinueFunding,
  ContractConfig,
  ContractEvent,
  FlowEntry,
  FundingPayment,
  SeedInsuranceFund,
  SettleFunding,
} from '@exchange/contracts';
import { FUNDING_PAYMENTS_PER_COMMAND } from '../ledger-ids';
import { Money, ZERO } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import {
  balanceAfter,
  type ContractContext,
  flowEntry,
  ownedBy,
  positionAfter,
  requireContract,
  roundDown,
  roundUp,
  totalOf,
} from './contract-decision';
import { amountAtPrecision } from './contract-margin';
import {
  type ContractBalance,
  type ContractsState,
  fundingCursorKey,
  fundingKey,
  peekContractBalance,
  type PositionState,
} from './contract-state';

/** CONTRACTS.md's bound on a funding rate: clamp(…, −0.75%, +0.75%). */
const MAX_RATE = new Money('0.0075');

/** The operator's USDT into the insurance fund. */
export function seedInsuranceFund(
  command: SeedInsuranceFund,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const amount = amountAtPrecision(command.payload.amount, ctx);
  const fundId = ctx.insurance.accountId;
  const before = peekContractBalance(state, fundId);
  const fund = { ...before, free: before.free.plus(amount) };
  const flows = [flowEntry(ctx, 0, fundId, 'DEPOSIT', amount, totalOf(fund))];
  return [
    {
      type: 'InsuranceFundSeeded',
      payload: { seedId: command.payload.seedId, amount: amount.toFixed(), balance: balanceAfter(fundId, fund), flows },
    },
  ];
}

/**
 * Every open position of the symbol pays or receives size × multiplier × mark × rate (LONG pays a
 * positive rate), from or into its position margin. A payment is rounded up against the payer, a
 * receipt down; the fund keeps the difference, so the sum over all accounts is unchanged. A payer
 * whose margin cannot pay all pays what it has (liquidation should have come first) and the fund
 * makes up the receipts; what the fund cannot is `uncovered`. The fund's own positions pay from
 * and into its free USDT. A second settlement of the same (symbol, fundingTime), or of an earlier
 * one, decides nothing: funding is paid once. Each ledger partition settles its own positions
 * against its own fund account (the fund is the sum of them), so the payments of one partition
 * need not net to zero: its fund is the clearing account that takes the difference.
 *
 * Positions are paid in key order (account, symbol, side), at most FUNDING_PAYMENTS_PER_COMMAND in
 * a command: when more remain, ContinueFunding pays the next part (see fundingPart).
 */
export function settleFunding(command: SettleFunding, state: ContractsState, ctx: ContractContext): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  const [rate, mark] = [new Money(p.rate), new Money(p.markPrice)];
  if (rate.abs().gt(MAX_RATE))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'rate': at most ${MAX_RATE.toFixed()} either way.`,
    );
  if (mark.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      "Invalid value for parameter 'markPrice': must be greater than zero.",
    );
  const last = state.fundings.get(fundingKey(p.symbol, ctx.insurance.accountId));
  if (last !== undefined && p.fundingTime <= last) return [];
  return fundingPart(p, config, { origin: command.id, part: 1 }, state, ctx);
}

/**
 * A later part of a settlement: only the one the fold's cursor waits for (the same fundingTime,
 * position and part number) pays. A repeat of a part decided before decides nothing.
 */
export function continueFunding(
  command: ContinueFunding,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  const cursor = state.fundingCursors.get(fundingCursorKey(p.symbol, ctx.insurance.accountId, p.fundingTime));
  if (cursor?.after !== p.after || cursor.part !== p.part) return [];
  return fundingPart(p, config, { origin: p.origin, part: p.part, after: p.after }, state, ctx);
}

/**
 * One part of a settlement: the positions after the cursor, up to the budget. Each part is exact on
 * its own (its payments, its clearing share and its fund remainder sum to zero), so the parts
 * together keep the sum over accounts; the clearing share is rounded per part. When positions
 * remain, a FundingContinued after the part's FundingSettled carries the cursor on.
 */
function fundingPart(
  p: SettleFunding['payload'],
  config: ContractConfig,
  at: { origin: string; part: number; after?: string },
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const [rate, mark] = [new Money(p.rate), new Money(p.markPrice)];
  const fundId = ctx.insurance.accountId;
  const balances = new Map<string, ContractBalance>();
  const balanceOf = (id: string) => balances.get(id) ?? peekContractBalance(state, id);
  const payments: FundingPayment[] = [];
  const flows: FlowEntry[] = [];
  let [paid, received, net] = [ZERO, ZERO, ZERO];
  const held = heldAfter(state, p.symbol, rate.isZero(), at.after, ctx);
  for (const [, position] of held.slice(0, FUNDING_PAYMENTS_PER_COMMAND)) {
    const amount = position.size.times(config.contractMultiplier).times(mark).times(rate.abs());
    const pays = rate.gt(0) === (position.side === 'LONG');
    net = pays ? net.plus(amount) : net.minus(amount);
    const fund = position.accountId === fundId;
    const balance = balanceOf(position.accountId);
    let change: Money;
    if (pays) {
      change = (fund ? roundUp(ctx, amount) : Money.min(roundUp(ctx, amount), position.margin)).negated();
      paid = paid.minus(change);
    } else {
      change = roundDown(ctx, amount);
      received = received.plus(change);
    }
    const after = fund ? position : { ...position, margin: position.margin.plus(change) };
    const balanceNow = fund
      ? { ...balance, free: balance.free.plus(change) }
      : { ...balance, positionMargin: balance.positionMargin.plus(change) };
    balances.set(position.accountId, balanceNow);
    payments.push({
      accountId: position.accountId,
      side: position.side,
      amount: change.toFixed(),
      position: positionAfter(after, config, ctx),
      balance: balanceAfter(position.accountId, balanceNow),
    });
    if (!change.isZero())
      flows.push(flowEntry(ctx, flows.length, position.accountId, 'FUNDING_SETTLEMENT', change, totalOf(balanceNow)));
  }
  const cleared = clearedShare(ctx, net);
  if (!cleared.isZero()) {
    const clearingId = ctx.clearingAccountId!;
    const before = balanceOf(clearingId);
    const now = { ...before, free: before.free.plus(cleared) };
    balances.set(clearingId, now);
    flows.push(flowEntry(ctx, flows.length, clearingId, 'FUNDING_SETTLEMENT', cleared, totalOf(now)));
  }
  const remainder = paid.minus(received).minus(cleared);
  const fundBefore = balanceOf(fundId);
  const fundFree = fundBefore.free.plus(remainder);
  const uncovered = Money.max(ZERO, fundFree.negated());
  const fundNow = { ...fundBefore, free: Money.max(ZERO, fundFree) };
  const fundChange = fundNow.free.minus(fundBefore.free);
  if (!fundChange.isZero())
    flows.push(flowEntry(ctx, flows.length, fundId, 'FUNDING_SETTLEMENT', fundChange, totalOf(fundNow)));
  const settled: ContractEvent = {
    type: 'FundingSettled',
    payload: {
      symbol: p.symbol,
      fundingTime: p.fundingTime,
      rate: rate.toFixed(),
      markPrice: mark.toFixed(),
      payments,
      remainder: remainder.toFixed(),
      uncovered: uncovered.toFixed(),
      insurance: balanceAfter(fundId, fundNow),
      ...(cleared.isZero()
        ? {}
        : { clearing: balanceAfter(ctx.clearingAccountId!, balanceOf(ctx.clearingAccountId!)) }),
      flows,
    },
  };
  if (held.length <= FUNDING_PAYMENTS_PER_COMMAND) return [settled];
  const { symbol, fundingTime, rate: r, markPrice } = p;
  const next = { origin: at.origin, part: at.part + 1, after: held[FUNDING_PAYMENTS_PER_COMMAND - 1]![0] };
  return [
    settled,
    { type: 'FundingContinued', payload: { symbol, fundAccountId: fundId, fundingTime, rate: r, markPrice, ...next } },
  ];
}

/** The open positions of the symbol the partition holds, after the cursor, in key order (none at a zero rate). */
function heldAfter(
  state: ContractsState,
  symbol: string,
  zeroRate: boolean,
  after: string | undefined,
  ctx: ContractContext,
): [string, PositionState][] {
  if (zeroRate) return [];
  return [...state.positions.entries()]
    .filter(
      ([key, q]) =>
        q.symbol === symbol && q.size.gt(0) && (after === undefined || key > after) && ownedBy(ctx, q.accountId),
    )
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * What the partition's payers paid beyond what its receivers got, before rounding: it belongs to
 * receivers in other partitions, so it goes to the partition's clearing account (rounded down, the
 * fund keeps the rest with the rounding remainder). The exact amounts net to zero over all
 * positions, so the clearing accounts of all partitions sum to zero up to one unit of USDT's
 * precision per partition. Without a clearing account (one partition holds every position) the
 * net is zero and nothing is cleared.
 */
function clearedShare(ctx: ContractContext, net: Money): Money {
  if (ctx.clearingAccountId === undefined) return ZERO;
  return net.toDecimalPlaces(ctx.marginPrecision, Money.ROUND_FLOOR);
}
