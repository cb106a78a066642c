import type {
  ContinueLiquidation,
  ContractConfig,
  ContractEvent,
  EndContractOrder,
  FlowEntry,
  MarkContractPrice,
  PositionSide,
} from '@exchange/contracts';
import { liquidationFits } from '../ledger-ids';
import { Money, ZERO } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import {
  balanceAfter,
  type ContractContext,
  flowEntry,
  ownedBy,
  positionAfter,
  requireContract,
  totalOf,
} from './contract-decision';
import { deleveragesAcross, requestAdl, reservedForAdl } from './contract-adl';
import { deleverage } from './contract-deleveraging';
import { ContractDraft } from './contract-draft';
import { endContractOrder, placeContractOrder } from './contract-orders';
import { bankruptcyValue, pastMaintenance, unrealisedPnl } from './contract-risk';
import {
  type ContractsState,
  fundingKey,
  orderRecordOf,
  peekContractBalance,
  peekPosition,
  type PositionState,
} from './contract-state';

/** How far through the mark the fund's IOC closing orders reach, as priceType MARKET does (CONTRACTS.md). */
const FUND_ORDER_REACH = new Money('0.05');

/**
 * A new mark price for a symbol. The positions it crosses are found in the liquidation index (only
 * they are read), checked against the exact rule, and liquidated one by one in a draft, so each
 * step sees the last: their orders on that side canceled first, then the position taken over by
 * the insurance fund at the bankruptcy price, or, when the fund could not pay what that would lose
 * at this mark, deleveraged against opposite positions. A position whose orders are still on the
 * engine's book is not taken yet: their cancels are requested, and a later mark (market data
 * publishes one whenever the mark or index changes), after the engine ended them, finds it in the
 * index again. A flat mark leaves it waiting, but any move against it is a new mark. Last, whatever the fund holds on the symbol
 * and has not yet offered gets an IOC closing order. A cascade stops where one command's id space
 * would not take another step (liquidationFits): a LiquidationContinued asks for the part `next`,
 * which judges the rest at the kept mark (continueLiquidation).
 */
export function markContractPrice(
  command: MarkContractPrice,
  state: ContractsState,
  ctx: ContractContext,
  next: { origin: string; part: number } = { origin: command.id, part: 2 },
): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  const mark = new Money(p.markPrice);
  if (mark.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      "Invalid value for parameter 'markPrice': must be greater than zero.",
    );
  const draft = new ContractDraft(state);
  for (const key of liquidationCandidates(state, p.symbol, mark).filter((k) =>
    ownedBy(ctx, draft.state.positions.get(k)!.accountId),
  )) {
    if (!liquidationFits({ flows: ctx.flowsTaken?.() ?? 0, events: draft.events.length })) {
      const { symbol, marketsVersion } = p;
      draft.emit({
        type: 'LiquidationContinued',
        payload: { symbol, fundAccountId: ctx.insurance.accountId, marketsVersion, ...next },
      });
      break;
    }
    if (!pastMaintenance(draft.state.positions.get(key)!, config, mark)) continue;
    // Part of it is reserved for another bankrupt position's ADL: it waits for that ADL's ApplyAdl.
    if (reservedForAdl(draft.state, draft.state.positions.get(key)!)) continue;
    // Its orders on the engine's book may still fill: the takeover waits for their end (a later mark).
    if (!cancelPositionOrders(draft, key, ctx)) continue;
    const position = draft.state.positions.get(key)!;
    if (fundCovers(draft.state, position, config, mark, ctx))
      draft.emit(takeOver(draft.state, position, config, mark, ctx));
    else if (deleveragesAcross(ctx)) {
      // Opposite positions sit in every partition: the fund takes it now, ADL across partitions takes it from the fund.
      draft.emit(takeOver(draft.state, position, config, mark, ctx));
      requestAdl(draft, position, config, mark, `${command.id}|${key}`, ctx);
    } else if (!oppositeCovers(draft.state, position, ctx))
      draft.emit(takeOver(draft.state, position, config, mark, ctx));
    else deleverage(draft, position, config, mark, ctx);
  }
  for (const side of ['LONG', 'SHORT'] as const)
    offerFundPosition(
      draft,
      peekPosition(draft.state, ctx.insurance.accountId, p.symbol, side),
      config,
      mark,
      p.marketsVersion,
      ctx,
    );
  return draft.events;
}

/**
 * A liquidation waits for its position's orders to leave the engine's book (markContractPrice).
 * When the engine's end of an order whose cancel was requested arrives, the symbol is judged again
 * at the mark this partition keeps, so the takeover does not wait for the next mark change: in a
 * flat market none comes. `ended` are the events that end the order.
 */
export function liquidateAfterCancel(
  command: EndContractOrder,
  state: ContractsState,
  ended: ContractEvent[],
  ctx: ContractContext,
): ContractEvent[] {
  const order = state.orders.get(command.payload.orderId);
  const mark = order && state.marks.get(fundingKey(order.symbol, ctx.insurance.accountId));
  if (!order?.cancelRequested || !mark) return [];
  const draft = new ContractDraft(state);
  draft.emit(...ended);
  return judgeAtMark(command, order.symbol, mark, order.marketsVersion, draft.state, ctx);
}

/** The next part of a cascade one command could not take whole: the symbol judged again at the kept mark. */
export function continueLiquidation(
  command: ContinueLiquidation,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const { symbol, marketsVersion, origin, part } = command.payload;
  const mark = state.marks.get(fundingKey(symbol, ctx.insurance.accountId));
  if (!mark) return [];
  return judgeAtMark(command, symbol, mark, marketsVersion, state, ctx, { origin, part: part + 1 });
}

function judgeAtMark(
  command: { id: string; ts: number },
  symbol: string,
  mark: Money,
  marketsVersion: number,
  state: ContractsState,
  ctx: ContractContext,
  next?: { origin: string; part: number },
): ContractEvent[] {
  const payload = { symbol, markPrice: mark.toFixed(), indexPrice: mark.toFixed(), marketsVersion };
  return markContractPrice(
    { type: 'MarkContractPrice', v: 1, id: command.id, ts: command.ts, payload },
    state,
    ctx,
    next,
  );
}

/** LONGs whose liquidation price the mark fell to, then SHORTs it rose to, each the deepest first. */
function liquidationCandidates(state: ContractsState, symbol: string, mark: Money): string[] {
  return (['LONG', 'SHORT'] as const).flatMap((side) => {
    const heap = state.liquidation.get(`${symbol}|${side}`);
    if (!heap) return [];
    const deeper = (a: string, b: string) =>
      heap.priceOf(a)!.cmp(heap.priceOf(b)!) * (side === 'LONG' ? -1 : 1) || (a < b ? -1 : 1);
    return heap.crossed(mark).sort(deeper);
  });
}

/** The reason of an order canceled because its position was liquidated: a STOP the ledger ended, or an order the engine took off its book at the liquidation's request. */
export const LIQUIDATION_CANCEL = 'LIQUIDATION';

/**
 * Cancels every open order of a position (OPEN orders would add to it, CLOSE orders claim it):
 * a STOP ends here; an order on the engine's book has its cancel requested, once, as a user's
 * cancel does (the engine may fill it first: those fills settle against its lock), and its
 * outcome ends it. Whether none is left on the book, so the position may be taken now.
 */
export function cancelPositionOrders(draft: ContractDraft, key: string, ctx: ContractContext): boolean {
  let onBook = false;
  for (const orderId of [...(draft.state.positionOrders.get(key) ?? [])].sort()) {
    const o = draft.state.orders.get(orderId)!;
    if (o.orderType === 'STOP') {
      const command = {
        type: 'EndContractOrder',
        v: 1,
        id: '',
        ts: ctx.now,
        payload: {
          userId: o.userId,
          accountId: o.accountId,
          orderId,
          symbol: o.symbol,
          status: 'CANCELED',
          reason: LIQUIDATION_CANCEL,
        },
      } as const;
      draft.emit(...endContractOrder(command, draft.state, ctx));
      continue;
    }
    onBook = true;
    if (!o.cancelRequested)
      draft.emit({ type: 'ContractCancelRequested', payload: { order: orderRecordOf(o), reason: LIQUIDATION_CANCEL } });
  }
  return !onBook;
}

/** Whether the fund's free USDT pays what it would lose at this mark: on this position, and on what it already holds of the symbol. */
function fundCovers(
  state: ContractsState,
  position: PositionState,
  config: ContractConfig,
  mark: Money,
  ctx: ContractContext,
): boolean {
  const fundId = ctx.insurance.accountId;
  const taken = { ...position, accountId: fundId, entryValue: bankruptcyValue(position), margin: ZERO };
  const losses = [
    taken,
    peekPosition(state, fundId, position.symbol, 'LONG'),
    peekPosition(state, fundId, position.symbol, 'SHORT'),
  ]
    .map((q) => Money.max(ZERO, unrealisedPnl(q, config, mark).negated()))
    .reduce((a, b) => a.plus(b), ZERO);
  return peekContractBalance(state, fundId).free.gte(losses);
}

/**
 * Whether the deciding partition's opposite positions (its fund's included) can take the whole position
 * by auto-deleveraging. When they cannot (the rest is held in other partitions) the fund takes it
 * over even at a loss it cannot pay yet: that loss is recorded as uncovered when the fund closes.
 */
function oppositeCovers(state: ContractsState, position: PositionState, ctx: ContractContext): boolean {
  const opposite = position.side === 'LONG' ? 'SHORT' : 'LONG';
  let size = ZERO;
  for (const q of state.positions.values()) {
    if (q.symbol === position.symbol && q.side === opposite && ownedBy(ctx, q.accountId)) size = size.plus(q.size);
  }
  return size.gte(position.size);
}

/** The user's side of a liquidation, whoever takes the position: it leaves whole, and the margin is the loss. */
export function closeAtBankruptcy(
  state: ContractsState,
  position: PositionState,
  config: ContractConfig,
  ctx: ContractContext,
  flows: FlowEntry[],
) {
  const balance = peekContractBalance(state, position.accountId);
  const loss = position.margin;
  const after: PositionState = {
    ...position,
    size: ZERO,
    closing: ZERO,
    opening: ZERO,
    entryValue: ZERO,
    margin: ZERO,
    realizedPnl: position.realizedPnl.minus(loss),
  };
  const balanceNow = { ...balance, positionMargin: balance.positionMargin.minus(loss) };
  if (!loss.isZero())
    flows.push(flowEntry(ctx, flows.length, position.accountId, 'PNL', loss.negated(), totalOf(balanceNow)));
  return { loss, position: positionAfter(after, config, ctx), balance: balanceAfter(position.accountId, balanceNow) };
}

function takeOver(
  state: ContractsState,
  position: PositionState,
  config: ContractConfig,
  mark: Money,
  ctx: ContractContext,
): ContractEvent {
  const flows: FlowEntry[] = [];
  const user = closeAtBankruptcy(state, position, config, ctx, flows);
  const value = bankruptcyValue(position);
  const fund = peekPosition(state, ctx.insurance.accountId, position.symbol, position.side);
  const fundAfter = {
    ...fund,
    size: fund.size.plus(position.size),
    entryValue: fund.entryValue.plus(value),
    leverage: new Money(1),
  };
  return {
    type: 'PositionLiquidated',
    payload: {
      accountId: position.accountId,
      symbol: position.symbol,
      side: position.side,
      markPrice: mark.toFixed(),
      size: position.size.toFixed(),
      loss: user.loss.toFixed(),
      bankruptcyValue: value.toFixed(),
      position: user.position,
      balance: user.balance,
      fundPosition: positionAfter(fundAfter, config, ctx),
      flows,
    },
  };
}

/** An IOC closing order for what the fund holds and has not offered yet, reaching 5% through the mark. */
function offerFundPosition(
  draft: ContractDraft,
  position: PositionState,
  config: ContractConfig,
  mark: Money,
  marketsVersion: number,
  ctx: ContractContext,
): void {
  const available = position.size.minus(position.closing);
  if (available.lte(0)) return;
  const long = position.side === 'LONG';
  const reach = mark.times(long ? new Money(1).minus(FUND_ORDER_REACH) : new Money(1).plus(FUND_ORDER_REACH));
  const price = Money.max(
    new Money(config.tickSize),
    reach.toNearest(config.tickSize, long ? Money.ROUND_DOWN : Money.ROUND_UP),
  );
  const side: PositionSide = position.side;
  const payload = {
    userId: ctx.insurance.userId,
    accountId: ctx.insurance.accountId,
    orderId: ctx.orderId(0),
    symbol: position.symbol,
    side: side === 'LONG' ? ('SELL_CLOSE' as const) : ('BUY_CLOSE' as const),
    price: price.toFixed(),
    quantity: available.toFixed(),
    marketsVersion,
  };
  const events = placeContractOrder(
    { type: 'PlaceContractOrder', v: 1, id: '', ts: ctx.now, payload },
    draft.state,
    ctx,
  );
  draft.emit(
    ...events.map((e) =>
      e.type === 'ContractOrderPlaced'
        ? { ...e, payload: { ...e.payload, order: { ...e.payload.order, timeInForce: 'IOC' as const } } }
        : e,
    ),
  );
}
