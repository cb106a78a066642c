import { amount, type BookLevel, type OrderOutcome, type RejectReason } from '@exchange/contracts';
import type {
  BookDepthChanged,
  EngineEvent,
  BookOrderAccepted,
  BookOrderCanceled,
  BookOrderFilled,
  OrderType,
  Side,
  BookTradeExecuted,
} from '../domain';
import type { CommandOutput } from './command-output';
import { addDecimals, type SymbolUnits } from './symbol-units';

/** What the engine's book does not keep about a resting order but its events must name. */
export interface OrderRef {
  userId: string;
  clientOrderId: string;
}

/** The incoming order of a SubmitOrder, in the command's own terms. */
export interface TakerContext {
  orderId: number;
  clientOrderId: string;
  accountId: string;
  userId: string;
  side: Side;
  orderType: OrderType;
  /** The base quantity asked for, "0" when sized by quote. */
  quantity: string;
  /** A MARKET BUY's quote amount as asked, "0" otherwise. */
  quoteAmount: string;
  /** The part of quoteAmount below one notional unit: never spendable, always returned. */
  quoteDust: string;
}

/**
 * Turns one command's domain events (integers, owner ids) into contract messages (decimal
 * strings, account and user ids) and the ledger's settlement commands, keeping the resting
 * orders' refs in step with the book: added when an order rests, dropped when it fills or is
 * canceled. The command's DepthChanged events become one BookChanged at the end.
 */
export class EngineEventTranslator {
  constructor(
    private readonly units: SymbolUnits,
    private readonly refs: Map<number, OrderRef>,
  ) {}

  translate(events: readonly EngineEvent[], taker: TakerContext | undefined, out: CommandOutput): void {
    const depth: BookDepthChanged[] = [];
    for (const event of events) {
      switch (event.type) {
        case 'OrderAccepted':
          this.accepted(event, need(taker), out);
          break;
        case 'TradeExecuted':
          this.trade(event, need(taker), out);
          break;
        case 'OrderRested':
          this.rested(event.restingLots, need(taker), out);
          break;
        case 'OrderFilled':
          this.filled(event, need(taker), out);
          break;
        case 'OrderCanceled':
          this.canceled(event, taker, out);
          break;
        case 'OrderRejected':
          writeRejection(need(taker), event.reason, out);
          break;
        case 'CancelRejected':
          throw new Error('engine event translator: CancelRejected is written by the cancel path');
        case 'DepthChanged':
          depth.push(event);
          break;
        case 'SymbolStatusChanged':
          out.event('SymbolStatusChanged', { status: event.status });
          break;
        default:
          unknownEvent(event);
      }
    }
    if (depth.length > 0) this.bookChanged(depth, out);
  }

  private accepted(event: BookOrderAccepted, taker: TakerContext, out: CommandOutput): void {
    const { orderId, clientOrderId, accountId, userId, side, orderType, quoteAmount } = taker;
    const [price, quantity] = [this.units.ticksToPrice(event.priceTicks), this.units.lotsToQty(event.qtyLots)];
    const terms = Object.assign(
      amount('price', price),
      amount('quantity', quantity),
      amount('quoteAmount', quoteAmount),
    );
    out.event('OrderAccepted', {
      orderId: String(orderId),
      clientOrderId,
      accountId,
      userId,
      side,
      orderType,
      timeInForce: event.timeInForce,
      ...terms,
    });
    // No ACCEPTED outcome for the ledger: it changes nothing there, and the same command always
    // ends with RESTED, FILLED or CANCELED, which the ledger does act on (one record, not two).
  }

  private trade(event: BookTradeExecuted, taker: TakerContext, out: CommandOutput): void {
    const maker = this.refs.get(event.makerOrderId);
    if (maker === undefined) throw new Error(`engine event translator: no ref for resting order ${event.makerOrderId}`);
    const [price, qty, quoteQty] = [
      this.units.ticksToPrice(event.priceTicks),
      this.units.lotsToQty(event.qtyLots),
      this.units.tradeQuote(event.priceTicks, event.qtyLots),
    ];
    const tradeId = String(event.tradeId);
    const makerAccountId = String(event.makerOwnerId);
    const makerSide: 'BUY' | 'SELL' = event.takerSide === 'BUY' ? 'SELL' : 'BUY';
    // Owners and client ids are in each order's OrderAccepted; the ledger gets its legs below.
    out.event('TradeExecuted', {
      tradeId,
      price,
      qty,
      takerOrderId: String(event.takerOrderId),
      makerOrderId: String(event.makerOrderId),
      isBuyerMaker: event.takerSide === 'SELL',
      makerRemainingQty: this.units.lotsToQty(event.makerRemainingLots),
      takerRemainingQty: this.units.lotsToQty(event.takerRemainingLots),
      ...amount('takerRemainingQuote', this.unspent(event.takerRemainingQuote, taker)),
    });
    const leg = { tradeId, symbol: out.symbol, price, qty, quoteQty };
    const [takerOrderId, makerOrderId] = [String(event.takerOrderId), String(event.makerOrderId)];
    // Object.assign, not spreads of the leg: V8 adds properties to a spread's copy on its slow path (~2 µs each).
    out.settle(
      'SettleTradeLeg',
      Object.assign({}, leg, {
        orderId: takerOrderId,
        matchOrderId: makerOrderId,
        accountId: taker.accountId,
        userId: taker.userId,
        side: event.takerSide,
        isMaker: false,
      }),
    );
    out.settle(
      'SettleTradeLeg',
      Object.assign({}, leg, {
        orderId: makerOrderId,
        matchOrderId: takerOrderId,
        accountId: makerAccountId,
        userId: maker.userId,
        side: makerSide,
        isMaker: true,
      }),
    );
    if (event.makerRemainingLots === 0) {
      // A maker's last lot ends its life here; the ledger gets the same FILLED step a taker does.
      this.refs.delete(event.makerOrderId);
      const makerContext = {
        orderId: event.makerOrderId,
        accountId: makerAccountId,
        userId: maker.userId,
        side: makerSide,
      } as const;
      writeOutcome(makerContext, 'FILLED', out, { remainingQty: '0', unspentQuote: '0' });
    }
  }

  private rested(restingLots: number, taker: TakerContext, out: CommandOutput): void {
    const { orderId, clientOrderId, userId } = taker;
    this.refs.set(orderId, { userId, clientOrderId });
    const restingQty = this.units.lotsToQty(restingLots);
    out.event('OrderRested', { orderId: String(orderId), restingQty });
    writeOutcome(taker, 'RESTED', out, { remainingQty: restingQty, unspentQuote: '0' });
  }

  private filled(event: BookOrderFilled, taker: TakerContext, out: CommandOutput): void {
    const unspentQuote = this.unspent(event.unspentQuote, taker);
    out.event('OrderFilled', { orderId: String(taker.orderId), ...amount('unspentQuote', unspentQuote) });
    writeOutcome(taker, 'FILLED', out, { remainingQty: '0', unspentQuote });
  }

  /** A taker's own remainder (IOC, FOK, MARKET, self-trade) or, with no taker, a user cancel of a resting order. */
  private canceled(event: BookOrderCanceled, taker: TakerContext | undefined, out: CommandOutput): void {
    const ref = taker ?? this.refs.get(event.orderId);
    if (ref === undefined) throw new Error(`engine event translator: no ref for canceled order ${event.orderId}`);
    if (taker === undefined) this.refs.delete(event.orderId);
    const owner = { orderId: event.orderId, accountId: String(event.ownerId), userId: ref.userId, side: event.side };
    const remainingQty = this.units.lotsToQty(event.remainingLots);
    const unspentQuote = taker === undefined ? '0' : this.unspent(event.unspentQuote, taker);
    out.event('OrderCanceled', {
      orderId: String(event.orderId),
      reason: event.reason,
      remainingQty,
      ...amount('unspentQuote', unspentQuote),
    });
    writeOutcome(owner, 'CANCELED', out, { reason: event.reason, remainingQty, unspentQuote });
  }

  private bookChanged(depth: readonly BookDepthChanged[], out: CommandOutput): void {
    const levels = { BUY: new Map<number, number>(), SELL: new Map<number, number>() };
    // A level touched twice in one command reports its last total (Map keeps first-seen order).
    for (const d of depth) levels[d.side].set(d.priceTicks, d.totalLots);
    const render = (side: Side): BookLevel[] =>
      [...levels[side]].map(([ticks, lots]) => [this.units.ticksToPrice(ticks), this.units.lotsToQty(lots)]);
    out.event('BookChanged', {
      updateIdFirst: depth[0]!.updateId,
      updateIdLast: depth[depth.length - 1]!.updateId,
      bids: render('BUY'),
      asks: render('SELL'),
    });
  }

  /** What a taker has not spent: the engine's remaining units plus the dust it could never spend. */
  private unspent(remainingUnits: number, taker: TakerContext): string {
    if (taker.orderType !== 'MARKET' || taker.side !== 'BUY') return '0';
    return addDecimals(this.units.notionalToQuote(remainingUnits), taker.quoteDust);
  }
}

/** A SubmitOrder refused before or by the engine: the ledger releases the whole hold. */
export function writeRejection(taker: TakerContext, reason: RejectReason, out: CommandOutput): void {
  const { orderId, clientOrderId, accountId, userId, side, orderType } = taker;
  out.event('OrderRejected', { orderId: String(orderId), clientOrderId, accountId, userId, side, orderType, reason });
  writeOutcome(taker, 'REJECTED', out, { reason, remainingQty: taker.quantity, unspentQuote: taker.quoteAmount });
}

function writeOutcome(
  order: Pick<TakerContext, 'accountId' | 'userId' | 'side'> & { orderId: number },
  outcome: OrderOutcome,
  out: CommandOutput,
  detail: { reason?: RejectReason | BookOrderCanceled['reason']; remainingQty: string; unspentQuote: string },
): void {
  const { accountId, userId, side } = order;
  const { reason, remainingQty, unspentQuote } = detail;
  const amounts = Object.assign(amount('remainingQty', remainingQty), amount('unspentQuote', unspentQuote));
  out.settle('ApplyOrderOutcome', {
    symbol: out.symbol,
    orderId: String(order.orderId),
    accountId,
    userId,
    side,
    outcome,
    ...(reason === undefined ? {} : { reason }),
    ...amounts,
  });
}

function need(taker: TakerContext | undefined): TakerContext {
  if (taker === undefined) throw new Error('engine event translator: an order event outside a SubmitOrder');
  return taker;
}

function unknownEvent(event: never): never {
  throw new Error(`engine event translator: unknown event ${JSON.stringify(event)}`);
}
