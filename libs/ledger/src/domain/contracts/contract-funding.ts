import type { ContractEvent, FlowEntry, FundingPayment, SeedInsuranceFund, SettleFunding } from '@exchange/contracts';
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
import { type ContractBalance, type ContractsState, fundingKey, peekContractBalance } from './contract-state';

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
  const fundId = ctx.insurance.accountId;
  const last = state.fundings.get(fundingKey(p.symbol, fundId));
  if (last !== undefined && p.fundingTime <= last) return [];

  const balances = new Map<string, ContractBalance>();
  const balanceOf = (id: string) => balances.get(id) ?? peekContractBalance(state, id);
  const payments: FundingPayment[] = [];
  const flows: FlowEntry[] = [];
  let [paid, received, net] = [ZERO, ZERO, ZERO];
  const held = [...state.positions.entries()].filter(
    ([, q]) => q.symbol === p.symbol && q.size.gt(0) && !rate.isZero() && ownedBy(ctx, q.accountId),
  );
  for (const [, position] of held.sort(([a], [b]) => (a < b ? -1 : 1))) {
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
  return [
    {
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
    },
  ];
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
