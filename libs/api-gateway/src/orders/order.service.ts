import { randomBytes } from 'node:crypto';
import type { LedgerInput, LedgerJournalEvent, LedgerOrderRecord, LedgerTradeRecord, Markets } from '@exchange/contracts';
import { ApiError, type Clock, type Config, ErrorCode, type IdGenerator } from '@exchange/platform';
import type { AuthContext } from '../auth/signed-request-authenticator';
import type { LedgerClient } from '../ledger-client/ledger-client';
import { type NewOrderRequest, parseNewOrder } from './order-params';
import { newOrderView, orderView, type OrderView, tradeView } from './order-views';
import type { OrdersReader } from './orders-reader';

const ENDED = new Set(['RESTED', 'FILLED', 'CANCELED', 'REJECTED']);

/**
 * The order endpoints. A new order is answered with what the engine did to it: the gateway waits
 * until the ledger has journaled the engine's first outcome of the order (resting, filled,
 * canceled or rejected), so an immediate query, account read or myTrades reflects the answer.
 */
export class OrderService {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly reader: OrdersReader,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  test(ctx: AuthContext): Record<string, never> {
    parseNewOrder(ctx.params, this.markets);
    return {};
  }

  async place(ctx: AuthContext): Promise<Record<string, unknown>> {
    const request = parseNewOrder(ctx.params, this.markets);
    const orderId = this.ids.next();
    const outcome = this.ledger.watchOrder(orderId, (e) => e.type === 'OrderOutcomeApplied' && ENDED.has(e.payload.outcome));
    try {
      await this.ledger.execute(this.placeCommand(ctx, request, orderId), 'OrderPlaced');
    } catch (error) {
      outcome.cancel();
      throw error;
    }
    if (request.respType === 'ACK') {
      outcome.cancel();
      return newOrderView((await this.reader.order(ctx.key.account.accountId, orderId, undefined))!, 'ACK', []);
    }
    const events = await outcome.events;
    const last = events[events.length - 1]!;
    const order = (last.payload as { order: LedgerOrderRecord }).order;
    if (order.status === 'REJECTED') throw rejection(last, orderId);
    const fills = events.filter((e): e is Extract<LedgerJournalEvent, { type: 'TradeSettled' }> => e.type === 'TradeSettled').map((e) => e.payload.trade);
    return newOrderView(order, request.respType, fills);
  }

  async query(ctx: AuthContext): Promise<OrderView> {
    return orderView(await this.findOrder(ctx), this.config.EXCHANGE_ID);
  }

  async cancel(ctx: AuthContext): Promise<Record<string, string>> {
    const order = await this.findOrder(ctx);
    const outcome = this.ledger.watchOrder(order.orderId, (e) => e.type === 'OrderOutcomeApplied' && (e.payload.outcome === 'CANCELED' || e.payload.outcome === 'FILLED'));
    try {
      await this.ledger.execute(
        { type: 'RequestCancel', v: 1, id: this.ids.next(), ts: this.clock.now(), payload: { userId: ctx.key.account.userId, accountId: ctx.key.account.accountId, orderId: order.orderId } } as LedgerInput,
        'OrderCancelRequested',
      );
    } catch (error) {
      outcome.cancel();
      throw error;
    }
    const events = await outcome.events;
    const final = (events[events.length - 1]!.payload as { order: LedgerOrderRecord }).order;
    if (final.status === 'FILLED') throw new ApiError(ErrorCode.ORDER_ALREADY_FILLED, `Order ${order.orderId} was filled before the cancel took effect.`);
    return { exchangeId: this.config.EXCHANGE_ID, symbol: final.symbol, clientOrderId: final.clientOrderId, orderId: final.orderId, status: final.status };
  }

  async openOrders(ctx: AuthContext): Promise<OrderView[]> {
    return (await this.reader.openOrders(this.listQuery(ctx, false))).map((o) => orderView(o, this.config.EXCHANGE_ID));
  }

  async historyOrders(ctx: AuthContext): Promise<OrderView[]> {
    return (await this.reader.historyOrders(this.listQuery(ctx, true))).map((o) => orderView(o, this.config.EXCHANGE_ID));
  }

  async myTrades(ctx: AuthContext): Promise<Record<string, unknown>[]> {
    const p = ctx.params;
    const { startTime, endTime } = this.timeRange(ctx);
    const fromId = p.optionalInt('fromId', 0, Number.MAX_SAFE_INTEGER);
    const toId = p.optionalInt('toId', 0, Number.MAX_SAFE_INTEGER);
    const trades: LedgerTradeRecord[] = await this.reader.trades({
      accountId: ctx.key.account.accountId,
      symbol: this.optionalSymbol(ctx),
      fromId: fromId === undefined ? undefined : String(fromId),
      toId: toId === undefined ? undefined : String(toId),
      startTime,
      endTime,
      limit: p.optionalInt('limit', 1, 1000) ?? 500,
    });
    return trades.map(tradeView);
  }

  private placeCommand(ctx: AuthContext, r: NewOrderRequest, orderId: string): LedgerInput {
    const payload = {
      userId: ctx.key.account.userId,
      accountId: ctx.key.account.accountId,
      orderId,
      clientOrderId: r.clientOrderId ?? `x-${randomBytes(9).toString('base64url')}`,
      symbol: r.symbol.symbol,
      side: r.side,
      type: r.type,
      timeInForce: r.timeInForce,
      ...(r.price !== undefined ? { price: r.price } : {}),
      ...(r.quantity !== undefined ? { quantity: r.quantity } : {}),
      ...(r.quoteOrderQty !== undefined ? { quoteOrderQty: r.quoteOrderQty } : {}),
      marketsVersion: this.markets.version,
    };
    return { type: 'PlaceOrder', v: 1, id: this.ids.next(), ts: this.clock.now(), payload } as LedgerInput;
  }

  private async findOrder(ctx: AuthContext): Promise<LedgerOrderRecord> {
    const p = ctx.params;
    const orderId = p.optionalInt('orderId', 1, Number.MAX_SAFE_INTEGER);
    const clientOrderId = p.optional('origClientOrderId') ?? p.optional('clientOrderId');
    if (orderId === undefined && clientOrderId === undefined) throw new ApiError(ErrorCode.ORDER_ID_MISSING, 'Param orderId or origClientOrderId must be sent.');
    const order = await this.reader.order(ctx.key.account.accountId, orderId === undefined ? undefined : String(orderId), orderId === undefined ? clientOrderId : undefined);
    if (!order) throw new ApiError(ErrorCode.NO_SUCH_ORDER, 'Order does not exist.');
    return order;
  }

  private listQuery(ctx: AuthContext, withTimes: boolean) {
    const orderId = ctx.params.optionalInt('orderId', 1, Number.MAX_SAFE_INTEGER);
    return {
      accountId: ctx.key.account.accountId,
      symbol: this.optionalSymbol(ctx),
      orderIdBelow: orderId === undefined ? undefined : String(orderId),
      ...(withTimes ? this.timeRange(ctx) : {}),
      limit: ctx.params.optionalInt('limit', 1, 1000) ?? 500,
    };
  }

  private optionalSymbol(ctx: AuthContext): string | undefined {
    const symbol = ctx.params.optional('symbol');
    if (symbol !== undefined && !this.markets.symbol(symbol)) throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol}'.`);
    return symbol;
  }

  private timeRange(ctx: AuthContext): { startTime?: number; endTime?: number } {
    const startTime = ctx.params.optionalInt('startTime', 0, Number.MAX_SAFE_INTEGER);
    const endTime = ctx.params.optionalInt('endTime', 0, Number.MAX_SAFE_INTEGER);
    if (startTime !== undefined && endTime !== undefined && startTime > endTime) throw new ApiError(ErrorCode.START_AFTER_END, 'startTime must not be after endTime.');
    return { startTime, endTime };
  }
}

function rejection(event: LedgerJournalEvent, orderId: string): ApiError {
  const reason = (event.payload as { reason?: string }).reason;
  if (reason === 'SYMBOL_NOT_TRADING') return new ApiError(ErrorCode.SYMBOL_NOT_TRADING, 'The symbol is not trading (HALT or BREAK).');
  if (reason === 'LIMIT_MAKER_WOULD_TAKE') return new ApiError(ErrorCode.NEW_ORDER_REJECTED, `Order ${orderId} would immediately match and take; a LIMIT_MAKER order was rejected.`);
  return new ApiError(ErrorCode.NEW_ORDER_REJECTED, `Order ${orderId} was rejected${reason ? ` (${reason})` : ''}.`);
}
