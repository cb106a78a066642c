import type { BookPlaceOrder } from './engine-commands';
import type { BookCancelReason, EngineEvent } from './engine-events';
import { type OrderBook, oppositeSide, type Side } from './order-book';

/** Why a sweep of the opposite side stopped. */
type SweepEnd = 'FILLED' | 'NO_LIQUIDITY' | 'LIMIT_PRICE' | 'BUDGET' | 'SELF_TRADE';

/** The incoming order while it matches: one reused object, so matching allocates nothing for it. */
class Taker {
  orderId = 0;
  ownerId = 0;
  side: Side = 'BUY';
  /** The worst maker price it accepts (MARKET: any). */
  limitTicks = 0;
  lots = 0;
  /** A MARKET BUY is sized by quote, not lots. */
  byBudget = false;
  budget = 0;
  filledLots = 0;
  ts = 0;
}

/** True when a maker at `makerTicks` is at or better than the taker's limit. */
function crosses(takerSide: Side, makerTicks: number, limitTicks: number): boolean {
  return takerSide === 'BUY' ? makerTicks <= limitTicks : makerTicks >= limitTicks;
}

/**
 * Price-time matching of one incoming order against a book, with self-trade prevention
 * (cancel the taker), and the events that record it. It owns the book's sequences (trade ids,
 * L2 update ids) because they advance exactly when it changes the book. Orders reaching it are
 * well formed and the symbol is trading: the engine has checked both.
 */
export class Matcher {
  lastTradeId = 0;
  lastUpdateId = 0;
  private readonly taker = new Taker();

  constructor(readonly book: OrderBook) {}

  place(command: BookPlaceOrder, out: EngineEvent[]): void {
    if (this.book.find(command.orderId) !== undefined) return this.reject(command, 'DUPLICATE_ORDER_ID', out);
    this.load(command);
    if (command.type === 'LIMIT_MAKER' && this.takesAtOnce())
      return this.reject(command, 'LIMIT_MAKER_WOULD_TAKE', out);
    out.push({
      type: 'OrderAccepted',
      orderId: command.orderId,
      ownerId: command.ownerId,
      side: command.side,
      orderType: command.type,
      timeInForce: command.timeInForce,
      priceTicks: command.priceTicks ?? 0,
      qtyLots: command.qtyLots ?? 0,
      quoteBudget: command.quoteBudget ?? 0,
      ts: command.ts,
    });
    if (command.type === 'LIMIT' && command.timeInForce === 'FOK' && !this.fillsCompletely()) {
      return this.cancelTaker('FOK_NOT_FILLABLE', out);
    }
    this.finish(command, this.sweep(out), out);
  }

  cancel(orderId: number, ts: number, out: EngineEvent[]): void {
    const order = this.book.remove(orderId);
    if (order === undefined) {
      out.push({ type: 'CancelRejected', orderId, reason: 'UNKNOWN_ORDER', ts });
      return;
    }
    const { ownerId, side, priceTicks, lots } = order;
    out.push({
      type: 'OrderCanceled',
      orderId,
      ownerId,
      side,
      remainingLots: lots,
      unspentQuote: 0,
      reason: 'USER',
      ts,
    });
    this.levelChanged(side, priceTicks, ts, out);
  }

  private load(command: BookPlaceOrder): void {
    const t = this.taker;
    t.orderId = command.orderId;
    t.ownerId = command.ownerId;
    t.side = command.side;
    t.limitTicks = command.priceTicks ?? (command.side === 'BUY' ? Number.MAX_SAFE_INTEGER : 0);
    t.byBudget = command.quoteBudget !== undefined;
    t.lots = t.byBudget ? 0 : (command.qtyLots ?? 0);
    t.budget = command.quoteBudget ?? 0;
    t.filledLots = 0;
    t.ts = command.ts;
  }

  private takesAtOnce(): boolean {
    const best = this.book.best(oppositeSide(this.taker.side));
    return best !== undefined && crosses(this.taker.side, best.priceTicks, this.taker.limitTicks);
  }

  /** FOK's look-ahead: the lots it could trade before its limit price or its own first resting order. */
  private fillsCompletely(): boolean {
    const t = this.taker;
    let available = 0;
    this.book.scan(oppositeSide(t.side), (maker) => {
      if (!crosses(t.side, maker.priceTicks, t.limitTicks) || maker.ownerId === t.ownerId) return false;
      available += maker.lots;
      return available < t.lots;
    });
    return available >= t.lots;
  }

  /** Trades against the opposite side, best first, until the taker is done or cannot go on. */
  private sweep(out: EngineEvent[]): SweepEnd {
    const t = this.taker;
    const makerSide = oppositeSide(t.side);
    let levelTicks = 0;
    let end: SweepEnd;
    for (;;) {
      if (t.byBudget ? t.budget === 0 : t.lots === 0) {
        end = 'FILLED';
        break;
      }
      const maker = this.book.best(makerSide);
      if (maker === undefined) {
        end = 'NO_LIQUIDITY';
        break;
      }
      const priceTicks = maker.priceTicks;
      if (!crosses(t.side, priceTicks, t.limitTicks)) {
        end = 'LIMIT_PRICE';
        break;
      }
      const lots = t.byBudget ? Math.min(maker.lots, Math.floor(t.budget / priceTicks)) : Math.min(maker.lots, t.lots);
      if (lots === 0) {
        end = 'BUDGET';
        break;
      }
      if (maker.ownerId === t.ownerId) {
        end = 'SELF_TRADE';
        break;
      }
      // A sweep only leaves a level once it is empty, so each touched level reports once.
      if (priceTicks !== levelTicks && levelTicks !== 0) this.levelChanged(makerSide, levelTicks, t.ts, out);
      levelTicks = priceTicks;
      this.trade(makerSide, priceTicks, lots, out);
    }
    if (levelTicks !== 0) this.levelChanged(makerSide, levelTicks, t.ts, out);
    return end;
  }

  private trade(makerSide: Side, priceTicks: number, lots: number, out: EngineEvent[]): void {
    const t = this.taker;
    const maker = this.book.best(makerSide)!;
    const makerOrderId = maker.orderId;
    const makerOwnerId = maker.ownerId;
    const makerRemainingLots = maker.lots - lots;
    this.book.fillBest(makerSide, lots);
    if (t.byBudget) t.budget -= priceTicks * lots;
    else t.lots -= lots;
    t.filledLots += lots;
    out.push({
      type: 'TradeExecuted',
      tradeId: ++this.lastTradeId,
      takerOrderId: t.orderId,
      takerOwnerId: t.ownerId,
      makerOrderId,
      makerOwnerId,
      takerSide: t.side,
      priceTicks,
      qtyLots: lots,
      makerRemainingLots,
      takerRemainingLots: t.lots,
      takerRemainingQuote: t.budget,
      ts: t.ts,
    });
  }

  /** The taker's one closing event, chosen by why its sweep ended and by its type. */
  private finish(command: BookPlaceOrder, end: SweepEnd, out: EngineEvent[]): void {
    switch (end) {
      case 'FILLED':
        return this.filled(out);
      case 'BUDGET':
        // Less than one lot is affordable: done, unless it never traded at all.
        return this.taker.filledLots > 0 ? this.filled(out) : this.cancelTaker('MARKET_NO_LIQUIDITY', out);
      case 'SELF_TRADE':
        return this.cancelTaker('SELF_TRADE_PREVENTION', out);
      case 'NO_LIQUIDITY':
      case 'LIMIT_PRICE':
        return this.remainder(command, out);
      default:
        return unreachable(end);
    }
  }

  private remainder(command: BookPlaceOrder, out: EngineEvent[]): void {
    if (command.type === 'MARKET') return this.cancelTaker('MARKET_NO_LIQUIDITY', out);
    if (command.type === 'LIMIT' && command.timeInForce === 'IOC') return this.cancelTaker('IOC_REMAINDER', out);
    // Unreachable after the look-ahead, but a FOK must never rest.
    if (command.type === 'LIMIT' && command.timeInForce === 'FOK') return this.cancelTaker('FOK_NOT_FILLABLE', out);
    this.rest(out);
  }

  private rest(out: EngineEvent[]): void {
    const t = this.taker;
    this.book.add(t.orderId, t.ownerId, t.side, t.limitTicks, t.lots);
    out.push({
      type: 'OrderRested',
      orderId: t.orderId,
      ownerId: t.ownerId,
      side: t.side,
      priceTicks: t.limitTicks,
      restingLots: t.lots,
      ts: t.ts,
    });
    this.levelChanged(t.side, t.limitTicks, t.ts, out);
  }

  private filled(out: EngineEvent[]): void {
    const t = this.taker;
    out.push({
      type: 'OrderFilled',
      orderId: t.orderId,
      ownerId: t.ownerId,
      side: t.side,
      unspentQuote: t.budget,
      ts: t.ts,
    });
  }

  private cancelTaker(reason: BookCancelReason, out: EngineEvent[]): void {
    const t = this.taker;
    out.push({
      type: 'OrderCanceled',
      orderId: t.orderId,
      ownerId: t.ownerId,
      side: t.side,
      remainingLots: t.lots,
      unspentQuote: t.budget,
      reason,
      ts: t.ts,
    });
  }

  private reject(
    command: BookPlaceOrder,
    reason: 'DUPLICATE_ORDER_ID' | 'LIMIT_MAKER_WOULD_TAKE',
    out: EngineEvent[],
  ): void {
    out.push({ type: 'OrderRejected', orderId: command.orderId, ownerId: command.ownerId, reason, ts: command.ts });
  }

  private levelChanged(side: Side, priceTicks: number, ts: number, out: EngineEvent[]): void {
    out.push({
      type: 'DepthChanged',
      updateId: ++this.lastUpdateId,
      side,
      priceTicks,
      totalLots: this.book.levelLots(side, priceTicks),
      ts,
    });
  }
}

function unreachable(value: never): never {
  throw new Error(`matcher: unhandled case ${String(value)}`);
}
