import type { ContractEvent, ContractOrderRecord, FillContractOrder, FlowEntry } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import {
  balanceAfter,
  type ContractContext,
  flowEntry,
  internal,
  isOpening,
  positionAfter,
  positionSideOf,
  requireContract,
  roundDown,
  roundUp,
  totalOf,
} from './contract-decision';
import { openContractOrder } from './contract-orders';
import {
  type ContractBalance,
  type ContractsState,
  peekContractBalance,
  peekPosition,
  type PositionState,
} from './contract-state';

export interface Settled {
  position: PositionState;
  balance: ContractBalance;
  /** What the account paid of the fee (all of it unless its margin ran out). */
  feePaid: Money;
  pnl: Money;
  uncovered: Money;
}

/**
 * One account's side of a contract trade. The fee, fill value × the maker or taker rate, is rounded
 * up against the payer and credited whole to the fee account. OPEN: the filled share of the lock
 * pays the fee and the margin at the fill price, the rest goes back to free. CLOSE: the closed
 * share of the entry value and of the margin leave the position, PnL is realised against them.
 */
export function fillContractOrder(
  command: FillContractOrder,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const order = openContractOrder(state, p);
  const config = requireContract(ctx, p.symbol);
  const [price, quantity] = [new Money(p.price), new Money(p.quantity)];
  const remaining = new Money(order.quantity).minus(order.executedQty);
  if (quantity.lte(0) || quantity.gt(remaining))
    throw internal(
      `trade ${p.tradeId} fills ${p.quantity} of order ${p.orderId}, which has ${remaining.toFixed()} left`,
    );
  if (price.lte(0) || !price.mod(config.tickSize).isZero())
    throw internal(`trade ${p.tradeId} has price ${p.price}, not a positive multiple of ${config.tickSize}`);
  if (order.orderType === 'STOP')
    throw internal(`trade ${p.tradeId} fills order ${p.orderId}, a STOP order its trigger has not released`);
  const value = price.times(quantity).times(config.contractMultiplier);
  const fee = roundUp(ctx, value.times(p.isMaker ? config.makerFee : config.takerFee));
  const position = peekPosition(state, p.accountId, p.symbol, positionSideOf(order.side));
  const balance = peekContractBalance(state, p.accountId);
  const done = quantity.eq(remaining);
  const marginLeft = new Money(order.marginLeft);
  const share = done ? marginLeft : roundDown(ctx, marginLeft.times(quantity).div(remaining));
  const fund = p.accountId === ctx.insurance.accountId;
  const settle = fund ? settleFundClose : settleClose;
  const settled = isOpening(order.side)
    ? settleOpen(order, position, balance, { value, quantity, fee, share }, ctx)
    : settle(position, balance, { value, quantity, fee }, ctx);

  const feeAccount = peekContractBalance(state, ctx.feeAccountId);
  const feeAccountNow = { ...feeAccount, free: feeAccount.free.plus(fee) };
  const totalNow = totalOf(settled.balance);
  const flows: FlowEntry[] = [];
  if (!settled.pnl.isZero())
    flows.push(
      flowEntry(
        ctx,
        flows.length,
        p.accountId,
        fund ? 'SETTLEMENT' : 'PNL',
        settled.pnl,
        totalNow.plus(settled.feePaid),
      ),
    );
  if (!fee.isZero()) {
    flows.push(flowEntry(ctx, flows.length, p.accountId, 'FEE', settled.feePaid.negated(), totalNow));
    flows.push(flowEntry(ctx, flows.length, ctx.feeAccountId, 'FEE', fee, totalOf(feeAccountNow)));
  }
  const executedQty = new Money(order.executedQty).plus(quantity);
  return [
    {
      type: 'ContractOrderFilled',
      payload: {
        tradeId: p.tradeId,
        accountId: p.accountId,
        symbol: p.symbol,
        side: order.side,
        price: price.toFixed(),
        quantity: quantity.toFixed(),
        isMaker: p.isMaker,
        fee: fee.toFixed(),
        feeToken: 'USDT',
        pnl: settled.pnl.toFixed(),
        uncovered: settled.uncovered.toFixed(),
        order: {
          orderId: order.orderId,
          executedQty: executedQty.toFixed(),
          marginLeft: marginLeft.minus(share).toFixed(),
          status: done ? 'FILLED' : 'PARTIALLY_FILLED',
        },
        position: positionAfter(settled.position, config, ctx),
        balance: balanceAfter(p.accountId, settled.balance),
        feeAccount: balanceAfter(ctx.feeAccountId, feeAccountNow),
        flows,
      },
    },
  ];
}

/**
 * The share of the lock pays the fee, then the margin at the fill price (value / leverage, rounded
 * up). A SELL_OPEN taker filled above its price needs more than it locked: free USDT pays the
 * difference, and only when free runs out does the position get less margin (or the fee go unpaid).
 */
function settleOpen(
  order: ContractOrderRecord,
  position: PositionState,
  balance: ContractBalance,
  fill: { value: Money; quantity: Money; fee: Money; share: Money },
  ctx: ContractContext,
): Settled {
  const wanted = roundUp(ctx, fill.value.div(order.leverage));
  const shortage = Money.max(ZERO, fill.fee.plus(wanted).minus(fill.share).minus(balance.free));
  const margin = Money.max(ZERO, wanted.minus(shortage));
  const uncovered = Money.max(ZERO, shortage.minus(wanted));
  const feePaid = fill.fee.minus(uncovered);
  return {
    position: {
      ...position,
      size: position.size.plus(fill.quantity),
      opening: position.opening.minus(fill.quantity),
      entryValue: position.entryValue.plus(fill.value),
      margin: position.margin.plus(margin),
    },
    balance: {
      free: balance.free.plus(fill.share).minus(feePaid).minus(margin),
      locked: balance.locked.minus(fill.share),
      positionMargin: balance.positionMargin.plus(margin),
    },
    feePaid,
    pnl: ZERO,
    uncovered,
  };
}

/**
 * PnL = exit value − closed entry value (negated for SHORT). A partial close takes its share of
 * the entry value rounded against the holder and its share of the margin rounded down; a full
 * close takes what is left, so no rounding outlives the position. The closed margin, the PnL and
 * the fee settle together: a gain goes to free; a loss beyond the closed margin comes from the
 * rest of the position's margin, never from free (isolated margin), and beyond that is uncovered.
 */
export function settleClose(
  position: PositionState,
  balance: ContractBalance,
  fill: { value: Money; quantity: Money; fee: Money },
  ctx: ContractContext,
): Settled {
  const { closedEntry, closedMargin, pnl } = closedShare(position, fill, ctx);
  const pool = closedMargin.plus(pnl).minus(fill.fee);
  const deficit = Money.max(ZERO, pool.negated());
  const fromRest = Money.min(deficit, position.margin.minus(closedMargin));
  const uncovered = deficit.minus(fromRest);
  const marginOut = closedMargin.plus(fromRest);
  const settledPnl = pnl.plus(uncovered);
  return {
    position: {
      ...position,
      size: position.size.minus(fill.quantity),
      closing: position.closing.minus(fill.quantity),
      entryValue: position.entryValue.minus(closedEntry),
      margin: position.margin.minus(marginOut),
      realizedPnl: position.realizedPnl.plus(settledPnl),
    },
    balance: {
      ...balance,
      free: balance.free.plus(Money.max(ZERO, pool)),
      positionMargin: balance.positionMargin.minus(marginOut),
    },
    feePaid: fill.fee,
    pnl: settledPnl,
    uncovered,
  };
}

/** The closed share of a position: its entry value rounded against the holder, its margin rounded down; a full close takes all. */
function closedShare(
  position: PositionState,
  fill: { value: Money; quantity: Money },
  ctx: ContractContext,
): { closedEntry: Money; closedMargin: Money; pnl: Money } {
  const full = fill.quantity.eq(position.size);
  if (fill.quantity.gt(position.size) || fill.quantity.gt(position.closing))
    throw internal(`a close fill of ${fill.quantity.toFixed()} exceeds the ${position.side} position's claimed size`);
  const long = position.side === 'LONG';
  const entryShare = position.entryValue.times(fill.quantity).div(position.size);
  const closedEntry = full ? position.entryValue : long ? roundUp(ctx, entryShare) : roundDown(ctx, entryShare);
  const closedMargin = full ? position.margin : roundDown(ctx, position.margin.times(fill.quantity).div(position.size));
  return { closedEntry, closedMargin, pnl: long ? fill.value.minus(closedEntry) : closedEntry.minus(fill.value) };
}

/**
 * The insurance fund closing what it took over: its positions hold no margin, its free USDT backs
 * them, so a gain goes to free and a loss (and the fee) comes from free; only what free cannot
 * pay is uncovered. The PnL is the fund's SETTLEMENT.
 */
export function settleFundClose(
  position: PositionState,
  balance: ContractBalance,
  fill: { value: Money; quantity: Money; fee: Money },
  ctx: ContractContext,
): Settled {
  const { closedEntry, pnl } = closedShare(position, fill, ctx);
  const uncovered = Money.max(ZERO, fill.fee.minus(pnl).minus(balance.free));
  const settledPnl = pnl.plus(uncovered);
  return {
    position: {
      ...position,
      size: position.size.minus(fill.quantity),
      closing: position.closing.minus(fill.quantity),
      entryValue: position.entryValue.minus(closedEntry),
      realizedPnl: position.realizedPnl.plus(settledPnl),
    },
    balance: { ...balance, free: balance.free.plus(settledPnl).minus(fill.fee) },
    feePaid: fill.fee,
    pnl: settledPnl,
    uncovered,
  };
}
