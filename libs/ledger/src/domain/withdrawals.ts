import type {
  LedgerWithdrawalRecord,
  ReleaseWithdrawal,
  RequestWithdrawal,
  SettleWithdrawal,
  WithdrawalRequestFields,
} from '@exchange/contracts';
import {
  balanceAfter,
  type DecisionContext,
  type Draft,
  flow,
  parseAmount,
  requireAccountOf,
  requireAsset,
} from './ledger-decision';
import { Money } from './ledger-money';
import { LedgerRejection, RejectCode } from './ledger-rejection';
import { type LedgerState, peekBalance } from './ledger-state';

/**
 * Holds a withdrawal's quantity + fee: free → locked, no flow entry. The clientOrderId stays taken
 * for the account's lifetime: repeating it with the same parameters names the existing withdrawal
 * (WithdrawalRepeated, answered as success), with other parameters it is -1141.
 */
export function requestWithdrawal(command: RequestWithdrawal, state: LedgerState, ctx: DecisionContext): Draft[] {
  const p = command.payload;
  const account = requireAccountOf(state, p.userId, p.accountId);
  if (!account.flags.canWithdraw)
    throw new LedgerRejection(RejectCode.REJECTED_API_KEY, `Account ${p.accountId} is not allowed to withdraw.`);
  const existingId = state.withdrawalClientIds.get(p.accountId)?.get(p.clientOrderId);
  const existing = existingId === undefined ? undefined : state.withdrawals.get(existingId);
  if (existing) {
    if (!sameRequest(existing, p))
      throw new LedgerRejection(
        RejectCode.DUPLICATE_CLIENT_ORDER_ID,
        `Duplicate clientOrderId '${p.clientOrderId}' with other parameters.`,
      );
    return [
      {
        type: 'WithdrawalRepeated',
        payload: { withdrawalId: existing.withdrawalId, accountId: p.accountId, clientOrderId: p.clientOrderId },
      },
    ];
  }
  if (state.withdrawals.has(p.withdrawalId))
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `Withdrawal id ${p.withdrawalId} is already used.`);
  if (p.internalTo?.accountId === p.accountId)
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      "Invalid value for parameter 'address': it is this account's own address.",
    );
  const asset = requireAsset(ctx, p.asset);
  const quantity = parseAmount(p.quantity, asset, 'withdrawalQuantity');
  const fee = new Money(p.fee);
  if (fee.decimalPlaces() > asset.precision)
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `The fee has more decimals than ${asset.asset} allows.`);
  const total = quantity.plus(fee);
  const balance = peekBalance(account, p.asset);
  if (balance.free.lessThan(total))
    throw new LedgerRejection(
      RejectCode.INSUFFICIENT_BALANCE,
      `Insufficient ${p.asset} balance in account ${p.accountId}: ${total.toFixed()} needed (quantity + fee).`,
    );
  const after = { free: balance.free.minus(total), locked: balance.locked.plus(total) };
  const withdrawal: LedgerWithdrawalRecord = { ...p, status: 'HELD', time: ctx.now, updateTime: ctx.now };
  return [
    {
      type: 'WithdrawalHeld',
      payload: { withdrawal, flows: [], balances: [balanceAfter(p.accountId, p.asset, after)] },
    },
  ];
}

/**
 * The withdrawal succeeded: its hold leaves the ledger. Flows: WITHDRAW −quantity, FEE −fee on the
 * account and FEE +fee on the deciding partition's fee account. A repeat changes nothing.
 */
export function settleWithdrawal(command: SettleWithdrawal, state: LedgerState, ctx: DecisionContext): Draft[] {
  const w = withdrawalOf(state, command.payload);
  if (w.status === 'SETTLED') return [];
  if (w.status === 'RELEASED') throw internal(`withdrawal ${w.withdrawalId} was released, it cannot be settled`);
  const feeAccountId = ctx.feeAccountId;
  if (feeAccountId === undefined) throw new Error('ledger: settling a withdrawal needs ctx.feeAccountId');
  const [quantity, fee] = [new Money(w.quantity), new Money(w.fee)];
  const balance = heldBalance(state, w);
  const afterQuantity = { free: balance.free, locked: balance.locked.minus(quantity) };
  const after = { free: balance.free, locked: afterQuantity.locked.minus(fee) };
  const flows = [flow(ctx, 0, w.accountId, w.asset, 'WITHDRAW', quantity.negated(), afterQuantity)];
  const balances = [balanceAfter(w.accountId, w.asset, after)];
  if (!fee.isZero()) {
    const feeBalance = peekBalance(state.accounts.get(feeAccountId), w.asset);
    const feeAfter = { free: feeBalance.free.plus(fee), locked: feeBalance.locked };
    flows.push(
      flow(ctx, 1, w.accountId, w.asset, 'FEE', fee.negated(), after),
      flow(ctx, 2, feeAccountId, w.asset, 'FEE', fee, feeAfter),
    );
    balances.push(balanceAfter(feeAccountId, w.asset, feeAfter));
  }
  const withdrawal: LedgerWithdrawalRecord = { ...w, status: 'SETTLED', updateTime: ctx.now };
  return [{ type: 'WithdrawalSettled', payload: { withdrawal, feeAccountId, flows, balances } }];
}

/** The withdrawal was rejected or failed: its hold returns to free, no flow entry. A repeat changes nothing. */
export function releaseWithdrawal(command: ReleaseWithdrawal, state: LedgerState, ctx: DecisionContext): Draft[] {
  const w = withdrawalOf(state, command.payload);
  if (w.status === 'RELEASED') return [];
  if (w.status === 'SETTLED') throw internal(`withdrawal ${w.withdrawalId} was settled, it cannot be released`);
  const total = new Money(w.quantity).plus(w.fee);
  const balance = heldBalance(state, w);
  const after = { free: balance.free.plus(total), locked: balance.locked.minus(total) };
  const withdrawal: LedgerWithdrawalRecord = { ...w, status: 'RELEASED', updateTime: ctx.now };
  return [
    {
      type: 'WithdrawalReleased',
      payload: { withdrawal, flows: [], balances: [balanceAfter(w.accountId, w.asset, after)] },
    },
  ];
}

function sameRequest(a: WithdrawalRequestFields, b: WithdrawalRequestFields): boolean {
  return (
    a.asset === b.asset &&
    new Money(a.quantity).equals(b.quantity) &&
    a.address === b.address &&
    a.addressExt === b.addressExt &&
    a.chainType === b.chainType
  );
}

/** The wallet names a withdrawal this ledger held: anything else is a bug upstream, refused with -1001. */
function withdrawalOf(
  state: LedgerState,
  p: { userId: string; accountId: string; withdrawalId: string },
): LedgerWithdrawalRecord {
  const w = state.withdrawals.get(p.withdrawalId);
  if (!w || w.accountId !== p.accountId || w.userId !== p.userId)
    throw internal(`withdrawal ${p.withdrawalId} of account ${p.accountId} is not held here`);
  return w;
}

function heldBalance(state: LedgerState, w: LedgerWithdrawalRecord) {
  const balance = peekBalance(state.accounts.get(w.accountId), w.asset);
  const total = new Money(w.quantity).plus(w.fee);
  if (balance.locked.lessThan(total))
    throw internal(`account ${w.accountId} has less ${w.asset} locked than withdrawal ${w.withdrawalId} holds`);
  return balance;
}

function internal(message: string): LedgerRejection {
  return new LedgerRejection(RejectCode.INTERNAL, `Withdrawal refused: ${message}.`);
}
