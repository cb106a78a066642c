import type { LedgerOrderTerms, PlaceOrder, RequestCancel, SymbolConfig } from '@exchange/contracts';
import { balanceAfter, type Draft, requireAccountOf, requireAsset, type TradingContext } from './ledger-decision';
import { Money } from './ledger-money';
import { LedgerRejection, RejectCode } from './ledger-rejection';
import { holdsClientId } from './client-id-window';
import { type LedgerState, peekBalance } from './ledger-state';

interface OrderTerms {
  price: Money;
  origQty: Money;
  origQuoteOrderQty: Money;
  reservedAsset: string;
  reserved: Money;
}

/**
 * Reserves the order's funds: LIMIT and LIMIT_MAKER BUY lock price × quantity of quote (rounded up
 * to the quote precision when the product has more decimals), a SELL of any type its base
 * quantity, a MARKET BUY its quote amount. The engine learns of the order only from OrderPlaced.
 */
export function placeOrder(command: PlaceOrder, state: LedgerState, ctx: TradingContext): Draft[] {
  const p = command.payload;
  const account = requireAccountOf(state, p.userId, p.accountId);
  if (account.record.accountType !== 1 || !account.flags.canTrade) {
    throw new LedgerRejection(
      RejectCode.NEW_ORDER_REJECTED,
      `New order rejected: account ${p.accountId} is not allowed to trade.`,
    );
  }
  const symbol = ctx.symbol(p.symbol);
  if (!symbol) throw new LedgerRejection(RejectCode.INVALID_SYMBOL, `Invalid symbol '${p.symbol}'.`);
  if (state.orders.has(p.orderId))
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `Order id ${p.orderId} is already used.`);
  const holderId = state.clientIds.get(p.accountId)?.get(p.clientOrderId);
  const holder = holderId === undefined ? undefined : state.orders.get(holderId);
  if (holder && holdsClientId(holder, ctx.now, state.clientIdWindowMs))
    throw new LedgerRejection(RejectCode.DUPLICATE_CLIENT_ORDER_ID, `Duplicate clientOrderId '${p.clientOrderId}'.`);
  const terms = orderTerms(p, symbol, ctx);
  const balance = peekBalance(account, terms.reservedAsset);
  if (balance.free.lessThan(terms.reserved)) {
    throw new LedgerRejection(
      RejectCode.INSUFFICIENT_BALANCE,
      `Insufficient ${terms.reservedAsset} balance in account ${p.accountId}.`,
    );
  }
  const after = { free: balance.free.minus(terms.reserved), locked: balance.locked.plus(terms.reserved) };
  // The terms only: status NEW, nothing executed, time and the whole reservation left follow from them (placedOrder).
  const order: LedgerOrderTerms = {
    orderId: p.orderId,
    clientOrderId: p.clientOrderId,
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    type: p.type,
    timeInForce: p.timeInForce,
    price: terms.price.toFixed(),
    origQty: terms.origQty.toFixed(),
    origQuoteOrderQty: terms.origQuoteOrderQty.toFixed(),
    reservedAsset: terms.reservedAsset,
    reservedAmount: terms.reserved.toFixed(),
    marketsVersion: p.marketsVersion,
  };
  return [
    { type: 'OrderPlaced', payload: { order, balances: [balanceAfter(p.accountId, terms.reservedAsset, after)] } },
  ];
}

function orderTerms(p: PlaceOrder['payload'], symbol: SymbolConfig, ctx: TradingContext): OrderTerms {
  const base = requireAsset(ctx, symbol.baseAsset);
  const quote = requireAsset(ctx, symbol.quoteAsset);
  const zero = new Money(0);
  if (p.type === 'MARKET' && p.side === 'BUY') {
    const quoteQty = positive(p.quoteOrderQty, 'quoteOrderQty');
    if (quoteQty.decimalPlaces() > quote.precision)
      throw new LedgerRejection(
        RejectCode.INVALID_VALUE,
        `Invalid value for parameter 'quoteOrderQty': ${quote.asset} allows at most ${quote.precision} decimals.`,
      );
    return { price: zero, origQty: zero, origQuoteOrderQty: quoteQty, reservedAsset: quote.asset, reserved: quoteQty };
  }
  const quantity = positive(p.quantity, 'quantity');
  const price = p.type === 'MARKET' ? zero : positive(p.price, 'price');
  if (p.side === 'SELL') {
    if (quantity.decimalPlaces() > base.precision)
      throw new LedgerRejection(
        RejectCode.INVALID_VALUE,
        `Invalid value for parameter 'quantity': ${base.asset} allows at most ${base.precision} decimals.`,
      );
    return { price, origQty: quantity, origQuoteOrderQty: zero, reservedAsset: base.asset, reserved: quantity };
  }
  const reserved = price.times(quantity).toDecimalPlaces(quote.precision, Money.ROUND_UP);
  return { price, origQty: quantity, origQuoteOrderQty: zero, reservedAsset: quote.asset, reserved };
}

function positive(text: string | undefined, param: string): Money {
  if (text === undefined)
    throw new LedgerRejection(RejectCode.MANDATORY_PARAMETER, `Mandatory parameter '${param}' was not sent.`);
  const value = new Money(text);
  if (value.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter '${param}': must be greater than zero.`,
    );
  return value;
}

/**
 * A user's cancel: an open order becomes PENDING_CANCEL until the engine's outcome ends it. The
 * order is found by id or by client id among the account's orders the ledger still holds.
 */
export function requestCancel(command: RequestCancel, state: LedgerState, ctx: TradingContext): Draft[] {
  const { userId, accountId, orderId, clientOrderId } = command.payload;
  requireAccountOf(state, userId, accountId);
  const id = orderId ?? (clientOrderId === undefined ? undefined : state.clientIds.get(accountId)?.get(clientOrderId));
  const order = id === undefined ? undefined : state.orders.get(id);
  if (
    !order ||
    order.accountId !== accountId ||
    (clientOrderId !== undefined && order.clientOrderId !== clientOrderId)
  ) {
    throw new LedgerRejection(RejectCode.NO_SUCH_ORDER, 'Order does not exist.');
  }
  switch (order.status) {
    case 'FILLED':
      throw new LedgerRejection(RejectCode.ORDER_FILLED, `Order ${order.orderId} is already filled.`);
    case 'CANCELED':
      throw new LedgerRejection(RejectCode.ORDER_CANCELED, `Order ${order.orderId} is already canceled.`);
    case 'REJECTED':
      throw new LedgerRejection(RejectCode.CANCEL_REJECTED, `Cancel rejected: order ${order.orderId} was rejected.`);
    case 'PENDING_CANCEL':
      throw new LedgerRejection(
        RejectCode.CANCEL_REJECTED,
        `Cancel rejected: a cancel of order ${order.orderId} is already pending.`,
      );
    case 'NEW':
    case 'PARTIALLY_FILLED':
      return [
        {
          type: 'OrderCancelRequested',
          payload: { order: { ...order, status: 'PENDING_CANCEL', updateTime: ctx.now } },
        },
      ];
    default: {
      const unexpected: never = order.status;
      throw new Error(`ledger: unknown order status ${String(unexpected)}`);
    }
  }
}
