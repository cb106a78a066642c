import type {
  ContractConfig,
  ContractEvent,
  ContractOrderRecord,
  EndContractOrder,
  PlaceContractOrder,
  RiskLimitConfig,
} from '@exchange/contracts';
import { Money } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import {
  balanceAfter,
  type ContractContext,
  internal,
  isOpening,
  parseSteps,
  positionAfter,
  positionSideOf,
  requireContract,
  roundUp,
} from './contract-decision';
import {
  type ContractsState,
  type OpenContractOrder,
  peekContractBalance,
  peekPosition,
  type PositionState,
} from './contract-state';

/**
 * What an OPEN order locks at its own price (BHEx's marginLocked): the margin, value / leverage,
 * plus the taker fee to open and the taker fee to close, each rounded up to USDT's precision.
 */
export function openLock(
  config: ContractConfig,
  price: Money,
  quantity: Money,
  leverage: Money,
  ctx: ContractContext,
): Money {
  const value = price.times(quantity).times(config.contractMultiplier);
  const takerFee = roundUp(ctx, value.times(config.takerFee));
  return roundUp(ctx, value.div(leverage)).plus(takerFee).plus(takerFee);
}

/** The tier that covers a position of `quantity` contracts, if any does. */
export function tierFor(config: ContractConfig, quantity: Money): RiskLimitConfig | undefined {
  return config.riskLimits.find((tier) => quantity.lte(tier.quantity));
}

function checkLeverage(
  text: string | undefined,
  config: ContractConfig,
  position: PositionState,
  quantity: Money,
): Money {
  if (text === undefined)
    throw new LedgerRejection(RejectCode.MANDATORY_PARAMETER, "Mandatory parameter 'leverage' was not sent.");
  const leverage = new Money(text);
  // The tier is the one the position reaches if this and every open OPEN order on its side fill.
  const reach = position.size.plus(position.opening).plus(quantity);
  const tier = tierFor(config, reach);
  if (!tier)
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'quantity': a position of ${reach.toFixed()} exceeds the last risk limit of ${config.symbol}.`,
    );
  const max = Money.min(config.maxLeverage, new Money(1).div(tier.initialMargin));
  if (leverage.lt(1) || leverage.gt(max))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'leverage': from 1 to ${max.toDecimalPlaces(2, Money.ROUND_DOWN).toFixed()} in risk limit ${tier.riskLimitId}.`,
    );
  const held = !position.size.isZero() || !position.opening.isZero();
  if (held && !leverage.eq(position.leverage)) {
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'leverage': the ${position.side} position of ${config.symbol} has leverage ${position.leverage.toFixed()}.`,
    );
  }
  return leverage;
}

/**
 * A STOP order is decided like the LIMIT order it describes (its margin locked, its close claimed,
 * from submission) and only waits off the book for its trigger.
 *
 * An OPEN order locks its margin and both taker fees from free USDT (-1131 when too little); a
 * CLOSE order locks nothing and claims part of its position's available size (-2022 beyond it).
 */
export function placeContractOrder(
  command: PlaceContractOrder,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  if (state.orders.has(p.orderId))
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `Order id ${p.orderId} is already used.`);
  const price = parseSteps(p.price, config.tickSize, 'price');
  const quantity = parseSteps(p.quantity, config.stepSize, 'quantity');
  const stop = p.orderType === 'STOP';
  if (stop && p.triggerPrice === undefined)
    throw new LedgerRejection(RejectCode.MANDATORY_PARAMETER, "Mandatory parameter 'triggerPrice' was not sent.");
  const trigger = stop ? parseSteps(p.triggerPrice!, config.tickSize, 'triggerPrice') : undefined;
  const side = positionSideOf(p.side);
  const position = peekPosition(state, p.accountId, p.symbol, side);
  const balance = peekContractBalance(state, p.accountId);
  let lock = new Money(0);
  let leverage = new Money(0);
  let after: PositionState;
  if (isOpening(p.side)) {
    leverage = checkLeverage(p.leverage, config, position, quantity);
    lock = openLock(config, price, quantity, leverage, ctx);
    if (balance.free.lt(lock))
      throw new LedgerRejection(
        RejectCode.INSUFFICIENT_BALANCE,
        `Insufficient USDT balance in account ${p.accountId}: the order needs ${lock.toFixed()}.`,
      );
    after = { ...position, opening: position.opening.plus(quantity), leverage };
  } else {
    const available = position.size.minus(position.closing);
    if (quantity.gt(available)) {
      throw new LedgerRejection(
        RejectCode.CLOSE_EXCEEDS_AVAILABLE,
        `Close quantity ${quantity.toFixed()} exceeds the available ${available.toFixed()} of the ${side} position of ${p.symbol}.`,
      );
    }
    after = { ...position, closing: position.closing.plus(quantity) };
  }
  const order: ContractOrderRecord = {
    orderId: p.orderId,
    accountId: p.accountId,
    userId: p.userId,
    symbol: p.symbol,
    side: p.side,
    price: price.toFixed(),
    quantity: quantity.toFixed(),
    leverage: leverage.toFixed(),
    executedQty: '0',
    marginLocked: lock.toFixed(),
    marginLeft: lock.toFixed(),
    status: 'NEW',
    time: ctx.now,
    marketsVersion: p.marketsVersion,
    orderType: stop ? 'STOP' : 'LIMIT',
    ...(trigger ? { triggerPrice: trigger.toFixed() } : {}),
    ...(p.timeInForce === undefined ? {} : { timeInForce: p.timeInForce }),
    ...(p.clientOrderId === undefined ? {} : { clientOrderId: p.clientOrderId }),
    ...(p.priceType === undefined ? {} : { priceType: p.priceType }),
  };
  const balanceNow = { ...balance, free: balance.free.minus(lock), locked: balance.locked.plus(lock) };
  return [
    {
      type: 'ContractOrderPlaced',
      payload: { order, balance: balanceAfter(p.accountId, balanceNow), position: positionAfter(after, config, ctx) },
    },
  ];
}

/** An open order of this account on this symbol, or an upstream bug. */
export function openContractOrder(
  state: ContractsState,
  p: { orderId: string; accountId: string; symbol: string },
): OpenContractOrder {
  const order = state.orders.get(p.orderId);
  if (!order || order.accountId !== p.accountId || order.symbol !== p.symbol)
    throw internal(`order ${p.orderId} is not an open order of account ${p.accountId} on ${p.symbol}`);
  return order;
}

/** The remainder of an order ends (canceled, or an IOC/FOK remainder expired): what it holds goes back. */
export function endContractOrder(
  command: EndContractOrder,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const order = openContractOrder(state, p);
  const config = requireContract(ctx, p.symbol);
  const remaining = new Money(order.quantity).minus(order.executedQty);
  const position = peekPosition(state, p.accountId, p.symbol, positionSideOf(order.side));
  const balance = peekContractBalance(state, p.accountId);
  const released = new Money(order.marginLeft);
  const opening = isOpening(order.side);
  const after = opening
    ? { ...position, opening: position.opening.minus(remaining) }
    : { ...position, closing: position.closing.minus(remaining) };
  const balanceNow = { ...balance, free: balance.free.plus(released), locked: balance.locked.minus(released) };
  // The engine cancels a liquidation's request as it does a user's: the fold remembers who asked.
  const reason = p.status === 'CANCELED' && order.cancelReason ? order.cancelReason : p.reason;
  return [
    {
      type: 'ContractOrderEnded',
      payload: {
        accountId: p.accountId,
        symbol: p.symbol,
        side: order.side,
        order: { orderId: order.orderId, executedQty: order.executedQty, marginLeft: '0', status: p.status },
        released: released.toFixed(),
        balance: balanceAfter(p.accountId, balanceNow),
        position: positionAfter(after, config, ctx),
        ...(reason === undefined ? {} : { reason }),
      },
    },
  ];
}
