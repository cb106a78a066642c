import type {
  ContractEvent,
  CreditContractAccount,
  DebitContractAccount,
  MarkContractPrice,
  ModifyPositionMargin,
} from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import { balanceAfter, type ContractContext, positionAfter, requireContract, roundUp } from './contract-decision';
import { type ContractsState, fundingKey, peekContractBalance, peekPosition } from './contract-state';

export function amountAtPrecision(text: string, ctx: ContractContext): Money {
  const amount = new Money(text);
  if (amount.isZero())
    throw new LedgerRejection(RejectCode.INVALID_VALUE, "Invalid value for parameter 'amount': must not be zero.");
  if (amount.decimalPlaces() > ctx.marginPrecision)
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'amount': USDT allows at most ${ctx.marginPrecision} decimals.`,
    );
  return amount;
}

/** USDT arriving in a contracts account: the ledger's transfer into account type 3. */
export function creditContractAccount(
  command: CreditContractAccount,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const amount = amountAtPrecision(p.amount, ctx);
  const balance = peekContractBalance(state, p.accountId);
  return [
    {
      type: 'ContractAccountCredited',
      payload: {
        creditId: p.creditId,
        accountId: p.accountId,
        amount: amount.toFixed(),
        balance: balanceAfter(p.accountId, { ...balance, free: balance.free.plus(amount) }),
      },
    },
  ];
}

/** USDT leaving a contracts account (a transfer out of type 3): only free USDT moves, else -1131. */
export function debitContractAccount(
  command: DebitContractAccount,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const amount = amountAtPrecision(p.amount, ctx);
  const balance = peekContractBalance(state, p.accountId);
  if (amount.gt(balance.free))
    throw new LedgerRejection(
      RejectCode.INSUFFICIENT_BALANCE,
      `Insufficient USDT balance in account ${p.accountId}: ${balance.free.toFixed()} is free.`,
    );
  return [
    {
      type: 'ContractAccountDebited',
      payload: {
        debitId: p.debitId,
        accountId: p.accountId,
        amount: amount.toFixed(),
        balance: balanceAfter(p.accountId, { ...balance, free: balance.free.minus(amount) }),
      },
    },
  ];
}

/**
 * The mark a partition consumed, kept when it moved (ContractMarkPriced): the price its margin checks
 * use. Nothing when it is the mark already kept (or not a price at all: the liquidation refuses it).
 */
export function markPriced(command: MarkContractPrice, state: ContractsState, ctx: ContractContext): ContractEvent[] {
  const { symbol, markPrice, indexPrice } = command.payload;
  const mark = new Money(markPrice);
  if (mark.lte(0) || state.marks.get(fundingKey(symbol, ctx.insurance.accountId))?.eq(mark)) return [];
  return [
    {
      type: 'ContractMarkPriced',
      payload: {
        symbol,
        fundAccountId: ctx.insurance.accountId,
        markPrice: mark.toFixed(),
        indexPrice,
        at: command.ts,
      },
    },
  ];
}

/**
 * The mark a margin removal is checked at: the last one this partition consumed. Before its first
 * (a symbol no price has reached yet) the command's own markPrice, which the gateway fills with
 * the mark it reads, else the entry price; published v1 commands carry it.
 */
function markFor(state: ContractsState, p: ModifyPositionMargin['payload'], ctx: ContractContext): Money {
  const mark = state.marks.get(fundingKey(p.symbol, ctx.insurance.accountId)) ?? new Money(p.markPrice);
  if (mark.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      "Invalid value for parameter 'markPrice': must be greater than zero.",
    );
  return mark;
}

/**
 * Adds free USDT to a position's margin, or takes margin back to free. What stays must cover the
 * initial margin at the mark price (value / leverage, rounded up) plus any unrealised loss at that
 * price, else -1131: a removal never brings a position closer to liquidation than opening it did.
 */
export function modifyPositionMargin(
  command: ModifyPositionMargin,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  const amount = amountAtPrecision(p.amount, ctx);
  const position = peekPosition(state, p.accountId, p.symbol, p.side);
  if (position.size.isZero())
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Account ${p.accountId} has no ${p.side} position of ${p.symbol}.`,
    );
  const balance = peekContractBalance(state, p.accountId);
  if (amount.gt(0) && amount.gt(balance.free))
    throw new LedgerRejection(RejectCode.INSUFFICIENT_BALANCE, `Insufficient USDT balance in account ${p.accountId}.`);
  if (amount.lt(0)) {
    const mark = markFor(state, p, ctx);
    const markValue = mark.times(position.size).times(config.contractMultiplier);
    const unrealised =
      position.side === 'LONG' ? markValue.minus(position.entryValue) : position.entryValue.minus(markValue);
    const required = roundUp(ctx, markValue.div(position.leverage)).plus(Money.max(ZERO, unrealised.negated()));
    if (position.margin.plus(amount).lt(required)) {
      throw new LedgerRejection(
        RejectCode.INSUFFICIENT_BALANCE,
        `Margin of the ${p.side} position of ${p.symbol} may not fall below ${required.toFixed()} at mark price ${mark.toFixed()}.`,
      );
    }
  }
  const after = { ...position, margin: position.margin.plus(amount) };
  const balanceNow = {
    ...balance,
    free: balance.free.minus(amount),
    positionMargin: balance.positionMargin.plus(amount),
  };
  return [
    {
      type: 'PositionMarginModified',
      payload: {
        accountId: p.accountId,
        symbol: p.symbol,
        side: p.side,
        amount: amount.toFixed(),
        position: positionAfter(after, config, ctx),
        balance: balanceAfter(p.accountId, balanceNow),
      },
    },
  ];
}
