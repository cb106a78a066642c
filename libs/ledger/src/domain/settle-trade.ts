import type {
  ApplyOrderOutcome,
  BalanceAfter,
  LedgerOrderFill,
  LedgerOrderRecord,
  LedgerOrderStatus,
  SettleTradeLeg,
} from '@exchange/contracts';
import { balanceAfter, type Draft, requireAsset, type TradingContext } from './ledger-decision';
import { Money } from './ledger-money';
import { LedgerRejection, RejectCode } from './ledger-rejection';
import { isFinal, type LedgerState, peekBalance } from './ledger-state';

/**
 * A settlement names an order the engine got from this ledger; when it does not fit the ledger's
 * record (unknown, final, someone else's, more than reserved) the bug is upstream, and rejecting
 * with -1001 keeps the balances whole instead of driving one negative.
 */
function internal(message: string): LedgerRejection {
  return new LedgerRejection(RejectCode.INTERNAL, `Settlement refused: ${message}.`);
}

function openOrderOf(
  state: LedgerState,
  p: { orderId: string; accountId: string; userId: string; symbol: string; side: string },
): LedgerOrderRecord {
  const order = state.orders.get(p.orderId);
  if (
    !order ||
    order.accountId !== p.accountId ||
    order.userId !== p.userId ||
    order.symbol !== p.symbol ||
    order.side !== p.side
  ) {
    throw internal(`order ${p.orderId} is not an order of account ${p.accountId} on ${p.symbol} ${p.side}`);
  }
  if (isFinal(order)) throw internal(`order ${p.orderId} is already ${order.status}`);
  return order;
}

/**
 * The engine's step of an order's life. ACCEPTED changes nothing (no event); RESTED marks the order
 * working; FILLED, CANCELED and REJECTED end it and move what it still holds from locked to free
 * (for a LIMIT BUY filled at better prices, the difference; for a MARKET BUY, its unspent quote).
 * A PENDING_CANCEL order stays so until one of those ends it.
 */
export function applyOrderOutcome(command: ApplyOrderOutcome, state: LedgerState): Draft[] {
  const p = command.payload;
  const order = openOrderOf(state, p);
  const pending = order.status === 'PENDING_CANCEL';
  switch (p.outcome) {
    case 'ACCEPTED':
      return [];
    case 'RESTED': {
      const status: LedgerOrderStatus = pending
        ? 'PENDING_CANCEL'
        : new Money(order.executedQty).isZero()
          ? 'NEW'
          : 'PARTIALLY_FILLED';
      return [
        {
          type: 'OrderOutcomeApplied',
          payload: {
            outcome: p.outcome,
            ...reasonOf(p),
            order: { orderId: order.orderId, status, isWorking: true },
            balances: [],
          },
        },
      ];
    }
    case 'FILLED':
    case 'CANCELED':
    case 'REJECTED':
      return [endOrder(p, order, state)];
    default: {
      const unexpected: never = p.outcome;
      throw new Error(`ledger: unknown outcome ${String(unexpected)}`);
    }
  }
}

function reasonOf(p: ApplyOrderOutcome['payload']): { reason?: string } {
  return p.reason === undefined ? {} : { reason: p.reason };
}

function endOrder(p: ApplyOrderOutcome['payload'], order: LedgerOrderRecord, state: LedgerState): Draft {
  const left = new Money(order.reservationLeft);
  const balance = peekBalance(state.accounts.get(order.accountId), order.reservedAsset);
  if (balance.locked.lessThan(left))
    throw internal(
      `account ${order.accountId} has less ${order.reservedAsset} locked than order ${order.orderId} holds`,
    );
  const after = { free: balance.free.plus(left), locked: balance.locked.minus(left) };
  const status = p.outcome as 'FILLED' | 'CANCELED' | 'REJECTED';
  const balances = left.isZero() ? [] : [balanceAfter(order.accountId, order.reservedAsset, after)];
  const released = left.isZero() ? {} : { released: { asset: order.reservedAsset, amount: left.toFixed() } };
  return {
    type: 'OrderOutcomeApplied',
    payload: {
      outcome: p.outcome,
      ...reasonOf(p),
      order: { orderId: order.orderId, status, isWorking: false },
      ...released,
      balances,
    },
  };
}

/**
 * One account's leg of a trade. The paid side leaves the order's hold (BUY: quoteQty of quote,
 * SELL: qty of base); the received side is credited gross, then the fee (maker or taker rate ×
 * received, rounded up to the received asset's precision, never above it) moves to the
 * partition's fee account. The flows (TRADE −paid, TRADE +gross, FEE −fee, and FEE +fee on the fee
 * account) follow from the trade and the balances after it (tradeFlows): the event carries the first flow id.
 */
export function settleTradeLeg(command: SettleTradeLeg, state: LedgerState, ctx: TradingContext): Draft[] {
  const p = command.payload;
  const order = openOrderOf(state, p);
  const symbol = ctx.symbol(p.symbol);
  if (!symbol) throw new LedgerRejection(RejectCode.INVALID_SYMBOL, `Invalid symbol '${p.symbol}'.`);
  const isBuyer = p.side === 'BUY';
  const [qty, quoteQty] = [new Money(p.qty), new Money(p.quoteQty)];
  const paidAsset = isBuyer ? symbol.quoteAsset : symbol.baseAsset;
  const received = requireAsset(ctx, isBuyer ? symbol.baseAsset : symbol.quoteAsset);
  const [paid, gross] = isBuyer ? [quoteQty, qty] : [qty, quoteQty];
  const rate = new Money(p.isMaker ? symbol.makerFee : symbol.takerFee);
  const fee = Money.min(gross.times(rate).toDecimalPlaces(received.precision, Money.ROUND_UP), gross);

  const left = new Money(order.reservationLeft);
  if (paid.greaterThan(left))
    throw internal(
      `trade ${p.tradeId} pays ${paid.toFixed()} ${paidAsset}, more than order ${order.orderId} holds (${left.toFixed()})`,
    );
  const account = state.accounts.get(p.accountId);
  const paidBalance = peekBalance(account, paidAsset);
  if (paidBalance.locked.lessThan(paid))
    throw internal(`account ${p.accountId} has less ${paidAsset} locked than trade ${p.tradeId} pays`);
  const recvBalance = peekBalance(account, received.asset);
  const feeBalance = peekBalance(state.accounts.get(ctx.feeAccountId), received.asset);

  const paidAfter = { free: paidBalance.free, locked: paidBalance.locked.minus(paid) };
  const recvAfter = { free: recvBalance.free.plus(gross).minus(fee), locked: recvBalance.locked };
  const feeAfter = { free: feeBalance.free.plus(fee), locked: feeBalance.locked };
  const balances: BalanceAfter[] = [
    balanceAfter(p.accountId, paidAsset, paidAfter),
    balanceAfter(p.accountId, received.asset, recvAfter),
  ];
  if (!fee.isZero()) balances.push(balanceAfter(ctx.feeAccountId, received.asset, feeAfter));
  const updated: LedgerOrderFill = {
    orderId: order.orderId,
    executedQty: new Money(order.executedQty).plus(qty).toFixed(),
    cummulativeQuoteQty: new Money(order.cummulativeQuoteQty).plus(quoteQty).toFixed(),
    // FILLED is the outcome's to say; a pending cancel stays pending until it is applied.
    status: order.status === 'PENDING_CANCEL' ? 'PENDING_CANCEL' : 'PARTIALLY_FILLED',
    reservationLeft: left.minus(paid).toFixed(),
  };
  const trade = {
    tradeId: p.tradeId,
    orderId: p.orderId,
    accountId: p.accountId,
    symbol: p.symbol,
    price: p.price,
    qty: p.qty,
    quoteQty: p.quoteQty,
    commission: fee.toFixed(),
    commissionAsset: received.asset,
    // The engine's decision time, which its TradeExecuted carries too: myTrades and market trades agree.
    time: command.ts,
    isBuyer,
    isMaker: p.isMaker,
  };
  return [
    {
      type: 'TradeSettled',
      payload: { trade, order: updated, feeAccountId: ctx.feeAccountId, firstFlowId: ctx.flowId(0), balances },
    },
  ];
}
