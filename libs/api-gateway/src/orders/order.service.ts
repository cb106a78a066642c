import type { LedgerOrderRecord, LedgerTradeRecord, Markets, PlaceOrder } from '@exchange/contracts';
import { ApiError, type Clock, type Config, ErrorCode, type IdGenerator } from '@exchange/platform';
import type { SignedRequest } from '../auth/private-route';
import type { AuthContext } from '../auth/signed-request-authenticator';
import type { LedgerClient } from '../ledger-client/ledger-client';
import { type NewOrderRequest, parseNewOrder } from './order-params';
import { orderKey } from '../replies/pending-replies';
import { cancelOutcome, placementOutcome } from './order-outcomes';
import { generatedClientOrderId } from './client-order-ids';
import { newOrderView, orderView, type OrderView, tradeView } from './order-views';
import type { OrdersReader } from '@exchange/ledger-query';
import type { OrderEndpoints as E } from './order.endpoints';

/**
 * The order endpoints. A new order is answered with what the engine did to it: the gateway waits
 * until the ledger has journaled the engine's first outcome of the order (resting, filled,
 * canceled or rejected), so an immediate query, account read or myTrades reflects the answer.
 * Each request waits on the events of its own command (order-outcomes.ts), so concurrent
 * requests about one order each get their own answer.
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

  test(ctx: SignedRequest<typeof E.test>): Record<string, never> {
    parseNewOrder(ctx.query, this.markets);
    return {};
  }

  async place(ctx: SignedRequest<typeof E.place>): Promise<Record<string, unknown>> {
    const request = parseNewOrder(ctx.query, this.markets);
    const command = this.placeCommand(ctx, request, this.ids.next());
    const { order, fills } = await this.ledger.request(
      command,
      placementOutcome(command.id, command.payload.orderId, request.respType),
      { correlationId: ctx.correlationId },
    );
    return newOrderView(order, request.respType, fills);
  }

  async query(ctx: SignedRequest<typeof E.query>): Promise<OrderView> {
    return orderView(await this.findOrder(ctx), this.config.EXCHANGE_ID);
  }

  async cancel(ctx: SignedRequest<typeof E.cancel>): Promise<Record<string, string>> {
    const order = await this.findOrder(ctx);
    const command = {
      type: 'RequestCancel',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: { userId: ctx.key.account.userId, accountId: ctx.key.account.accountId, orderId: order.orderId },
    } as const;
    const final = await this.ledger.request(command, cancelOutcome(command.id, order.orderId), {
      alsoKeys: [orderKey(order.orderId)],
      correlationId: ctx.correlationId,
    });
    if (final.status === 'FILLED')
      throw new ApiError(
        ErrorCode.ORDER_ALREADY_FILLED,
        `Order ${order.orderId} was filled before the cancel took effect.`,
      );
    if (final.status === 'REJECTED')
      throw new ApiError(ErrorCode.CANCEL_REJECTED, `Cancel rejected: order ${order.orderId} was rejected.`);
    return {
      exchangeId: this.config.EXCHANGE_ID,
      symbol: final.symbol,
      clientOrderId: final.clientOrderId,
      orderId: final.orderId,
      status: final.status,
    };
  }

  async openOrders(ctx: SignedRequest<typeof E.openOrders>): Promise<OrderView[]> {
    return (await this.reader.openOrders(this.listQuery(ctx, false))).map((o) => orderView(o, this.config.EXCHANGE_ID));
  }

  async historyOrders(ctx: SignedRequest<typeof E.historyOrders>): Promise<OrderView[]> {
    return (await this.reader.historyOrders(this.listQuery(ctx, true))).map((o) =>
      orderView(o, this.config.EXCHANGE_ID),
    );
  }

  async myTrades(ctx: SignedRequest<typeof E.myTrades>): Promise<Record<string, unknown>[]> {
    const q = ctx.query;
    const { startTime, endTime } = timeRange(q);
    const trades: LedgerTradeRecord[] = await this.reader.trades({
      accountId: ctx.key.account.accountId,
      symbol: this.optionalSymbol(q.symbol),
      fromId: q.fromId === undefined ? undefined : String(q.fromId),
      toId: q.toId === undefined ? undefined : String(q.toId),
      startTime,
      endTime,
      limit: q.limit ?? 500,
    });
    return trades.map(tradeView);
  }

  private placeCommand(ctx: AuthContext, r: NewOrderRequest, orderId: string): PlaceOrder {
    const payload = {
      userId: ctx.key.account.userId,
      accountId: ctx.key.account.accountId,
      orderId,
      clientOrderId: r.clientOrderId ?? generatedClientOrderId(),
      symbol: r.symbol.symbol,
      side: r.side,
      type: r.type,
      timeInForce: r.timeInForce,
      ...(r.price !== undefined ? { price: r.price } : {}),
      ...(r.quantity !== undefined ? { quantity: r.quantity } : {}),
      ...(r.quoteOrderQty !== undefined ? { quoteOrderQty: r.quoteOrderQty } : {}),
      marketsVersion: this.markets.version,
    };
    return { type: 'PlaceOrder', v: 1, id: this.ids.next(), ts: this.clock.now(), payload };
  }

  private async findOrder(ctx: SignedRequest<typeof E.query>): Promise<LedgerOrderRecord> {
    const { orderId } = ctx.query;
    const clientOrderId = ctx.query.origClientOrderId ?? ctx.query.clientOrderId;
    if (orderId === undefined && clientOrderId === undefined)
      throw new ApiError(ErrorCode.ORDER_ID_MISSING, 'Param orderId or origClientOrderId must be sent.');
    const order = await this.reader.order(
      ctx.key.account.accountId,
      orderId === undefined ? undefined : String(orderId),
      orderId === undefined ? clientOrderId : undefined,
    );
    if (!order) throw new ApiError(ErrorCode.NO_SUCH_ORDER, 'Order does not exist.');
    return order;
  }

  private listQuery(ctx: SignedRequest<typeof E.openOrders>, withTimes: boolean) {
    const q = ctx.query;
    return {
      accountId: ctx.key.account.accountId,
      symbol: this.optionalSymbol(q.symbol),
      orderIdBelow: q.orderId === undefined ? undefined : String(q.orderId),
      ...(withTimes ? timeRange(q) : {}),
      limit: q.limit ?? 500,
    };
  }

  private optionalSymbol(symbol: string | undefined): string | undefined {
    if (symbol !== undefined && !this.markets.symbol(symbol))
      throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol}'.`);
    return symbol;
  }
}

function timeRange({ startTime, endTime }: { startTime?: number; endTime?: number }): {
  startTime?: number;
  endTime?: number;
} {
  if (startTime !== undefined && endTime !== undefined && startTime > endTime)
    throw new ApiError(ErrorCode.START_AFTER_END, 'startTime must not be after endTime.');
  return { startTime, endTime };
}
