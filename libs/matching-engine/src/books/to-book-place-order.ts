import type { RejectReason, SubmitOrder } from '@exchange/contracts';
import type { BookPlaceOrder } from '../domain';
import type { TakerContext } from './engine-event-translator';
import { plainDecimal, type SymbolUnits } from './symbol-units';

export type BookPlaceOrderConversion =
  { ok: true; command: BookPlaceOrder; taker: TakerContext } | { ok: false; reason: RejectReason; taker: TakerContext };

/** The order's own terms, in the command's decimals, for the events whatever the engine decides. */
export function takerOf(command: SubmitOrder): TakerContext {
  const p = command.payload;
  return {
    orderId: Number(p.orderId),
    clientOrderId: p.clientOrderId,
    accountId: p.accountId,
    userId: p.userId,
    side: p.side,
    orderType: p.type,
    quantity: p.quantity === undefined ? '0' : plainDecimal(p.quantity),
    quoteAmount: p.quoteAmount === undefined ? '0' : plainDecimal(p.quoteAmount),
    quoteDust: '0',
  };
}

/**
 * A SubmitOrder in the engine's integers, converted exactly: price and quantity must be whole
 * multiples of tickSize and stepSize, a quote amount is rounded down to whole notional units
 * (its dust is returned with the unspent quote). Which fields each order type needs is the
 * engine's check (INVALID_ORDER); this only refuses what cannot be represented.
 */
export function toBookPlaceOrder(command: SubmitOrder, units: SymbolUnits): BookPlaceOrderConversion {
  const p = command.payload;
  const taker = takerOf(command);
  const ownerId = Number(p.accountId);
  if (!Number.isSafeInteger(taker.orderId) || !Number.isSafeInteger(ownerId))
    return { ok: false, reason: 'INVALID_ORDER', taker };
  const priceTicks = p.price === undefined ? undefined : units.priceToTicks(p.price);
  if (p.price !== undefined && priceTicks === undefined) return { ok: false, reason: 'INVALID_PRICE', taker };
  const qtyLots = p.quantity === undefined ? undefined : units.qtyToLots(p.quantity);
  if (p.quantity !== undefined && qtyLots === undefined) return { ok: false, reason: 'INVALID_QUANTITY', taker };
  const budget = p.quoteAmount === undefined ? undefined : units.quoteToNotional(p.quoteAmount);
  if (p.quoteAmount !== undefined && (budget === undefined || budget.units === 0))
    return { ok: false, reason: 'INVALID_QUOTE_AMOUNT', taker };
  const place: BookPlaceOrder = {
    kind: 'PlaceOrder',
    orderId: taker.orderId,
    ownerId,
    side: p.side,
    type: p.type,
    timeInForce: p.timeInForce,
    ts: command.ts,
  };
  if (priceTicks !== undefined) place.priceTicks = priceTicks;
  if (qtyLots !== undefined) place.qtyLots = qtyLots;
  if (budget !== undefined) place.quoteBudget = budget.units;
  return { ok: true, command: place, taker: { ...taker, quoteDust: budget?.dust ?? '0' } };
}
