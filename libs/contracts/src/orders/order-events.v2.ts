import { z } from 'zod';
import { parseMessage } from '../envelope/message';
import { clockTickedV1 } from './clock-ticked.v1';
import {
  bookLevelField,
  cancelReasonField,
  cancelRejectedV1,
  orderEventV1Schema,
  type OrderEventV1,
  orderRejectedV1,
  symbolStatusChangedV1,
} from './order-events.v1';
import {
  decimalField,
  messageV2,
  orderIdField,
  orderTypeField,
  sideField,
  symbolField,
  timeInForceField,
} from './order-fields';

/**
 * Second version of the order.events that every order produces: each says what changed, not the
 * order again. An order's terms and owner travel once, in OrderAccepted; later events name the
 * order by id and carry the quantities that moved. No `commandId`: an event's id is
 * `<commandId>:<index>` (commandIdOf). Amounts that are zero are left out ("absent" reads as "0").
 * v1 records are upcast on read by `orderEventSchema`, so journals written before stay readable.
 */
const optionalAmount = decimalField.optional();

/** The order passed every check and is about to match: its terms, once. */
export const orderAcceptedV2 = messageV2(
  'OrderAccepted',
  z.object({
    symbol: symbolField,
    orderId: orderIdField,
    clientOrderId: z.string(),
    accountId: orderIdField,
    userId: orderIdField,
    side: sideField,
    orderType: orderTypeField,
    timeInForce: timeInForceField,
    /** Absent for MARKET. */
    price: optionalAmount,
    /** Absent for a MARKET BUY, which is sized by quote. */
    quantity: optionalAmount,
    /** A MARKET BUY's quote amount; absent otherwise. */
    quoteAmount: optionalAmount,
  }),
);

/** One trade at the maker's price (quote quantity = price × qty, exact); remainders are after it. */
export const tradeExecutedV2 = messageV2(
  'TradeExecuted',
  z.object({
    symbol: symbolField,
    tradeId: orderIdField,
    price: decimalField,
    qty: decimalField,
    takerOrderId: orderIdField,
    makerOrderId: orderIdField,
    /** The taker sold (takerSide is SELL). */
    isBuyerMaker: z.boolean(),
    /** "0": the maker order is filled and off the book. */
    makerRemainingQty: decimalField,
    /** "0" for a MARKET BUY, which is sized by quote. */
    takerRemainingQty: decimalField,
    /** What a MARKET BUY has not spent yet of its quoteAmount. */
    takerRemainingQuote: optionalAmount,
  }),
);

/** The order's remainder now rests on the book, at its limit price. */
export const orderRestedV2 = messageV2(
  'OrderRested',
  z.object({ symbol: symbolField, orderId: orderIdField, restingQty: decimalField }),
);

/** The incoming order traded everything its terms allow; unspentQuote (MARKET BUY) is released. */
export const orderFilledV2 = messageV2(
  'OrderFilled',
  z.object({ symbol: symbolField, orderId: orderIdField, unspentQuote: optionalAmount }),
);

/** The order ended without trading remainingQty; unspentQuote (MARKET BUY) is released. */
export const orderCanceledV2 = messageV2(
  'OrderCanceled',
  z.object({
    symbol: symbolField,
    orderId: orderIdField,
    reason: cancelReasonField,
    remainingQty: decimalField,
    unspentQuote: optionalAmount,
  }),
);

/** Every L2 change one command made; update ids chain (the next one starts at updateIdLast + 1). */
export const bookChangedV2 = messageV2(
  'BookChanged',
  z.object({
    symbol: symbolField,
    updateIdFirst: z.number().int().positive(),
    updateIdLast: z.number().int().positive(),
    bids: z.array(bookLevelField),
    asks: z.array(bookLevelField),
  }),
);

/** What the engine writes now: v2 where there is one, v1 for the rare events that kept theirs. */
export const currentOrderEventSchema = z.discriminatedUnion('type', [
  orderAcceptedV2,
  tradeExecutedV2,
  orderRestedV2,
  orderFilledV2,
  orderCanceledV2,
  orderRejectedV1,
  cancelRejectedV1,
  bookChangedV2,
  symbolStatusChangedV1,
  clockTickedV1,
]);

export type OrderEvent = z.infer<typeof currentOrderEventSchema>;
export type OrderEventType = OrderEvent['type'];
export type OrderAccepted = z.infer<typeof orderAcceptedV2>;
export type TradeExecuted = z.infer<typeof tradeExecutedV2>;
export type OrderRested = z.infer<typeof orderRestedV2>;
export type OrderFilled = z.infer<typeof orderFilledV2>;
export type OrderCanceled = z.infer<typeof orderCanceledV2>;
export type BookChanged = z.infer<typeof bookChangedV2>;

/** Leaves out an amount that is zero, as v2 writes it. */
export const amount = <K extends string>(key: K, value: string): Partial<Record<K, string>> =>
  value === '0' ? {} : ({ [key]: value } as Record<K, string>);

/** A v1 order event in the current shape: the fields v2 dropped are left behind, nothing is guessed. */
export function upcastOrderEventV1(event: OrderEventV1): OrderEvent {
  const envelope = { id: event.id, ts: event.ts };
  switch (event.type) {
    case 'OrderAccepted': {
      const p = event.payload;
      const terms = {
        symbol: p.symbol,
        orderId: p.orderId,
        clientOrderId: p.clientOrderId,
        accountId: p.accountId,
        userId: p.userId,
        side: p.side,
        orderType: p.orderType,
        timeInForce: p.timeInForce,
      };
      return {
        type: 'OrderAccepted',
        v: 2,
        ...envelope,
        payload: {
          ...terms,
          ...amount('price', p.price),
          ...amount('quantity', p.quantity),
          ...amount('quoteAmount', p.quoteAmount),
        },
      };
    }
    case 'TradeExecuted': {
      const p = event.payload;
      const moved = {
        symbol: p.symbol,
        tradeId: p.tradeId,
        price: p.price,
        qty: p.qty,
        takerOrderId: p.takerOrderId,
        makerOrderId: p.makerOrderId,
        isBuyerMaker: p.isBuyerMaker,
      };
      const left = {
        makerRemainingQty: p.makerRemainingQty,
        takerRemainingQty: p.takerRemainingQty,
        ...amount('takerRemainingQuote', p.takerRemainingQuote),
      };
      return { type: 'TradeExecuted', v: 2, ...envelope, payload: { ...moved, ...left } };
    }
    case 'OrderRested':
      return {
        type: 'OrderRested',
        v: 2,
        ...envelope,
        payload: { symbol: event.payload.symbol, orderId: event.payload.orderId, restingQty: event.payload.restingQty },
      };
    case 'OrderFilled':
      return {
        type: 'OrderFilled',
        v: 2,
        ...envelope,
        payload: {
          symbol: event.payload.symbol,
          orderId: event.payload.orderId,
          ...amount('unspentQuote', event.payload.unspentQuote),
        },
      };
    case 'OrderCanceled': {
      const p = event.payload;
      return {
        type: 'OrderCanceled',
        v: 2,
        ...envelope,
        payload: {
          symbol: p.symbol,
          orderId: p.orderId,
          reason: p.reason,
          remainingQty: p.remainingQty,
          ...amount('unspentQuote', p.unspentQuote),
        },
      };
    }
    case 'BookChanged': {
      const p = event.payload;
      return {
        type: 'BookChanged',
        v: 2,
        ...envelope,
        payload: {
          symbol: p.symbol,
          updateIdFirst: p.updateIdFirst,
          updateIdLast: p.updateIdLast,
          bids: p.bids,
          asks: p.asks,
        },
      };
    }
    case 'OrderRejected':
    case 'CancelRejected':
    case 'SymbolStatusChanged':
    case 'ClockTicked':
      return event;
    default: {
      const unknown: never = event;
      throw new Error(`order events: no upcast for ${JSON.stringify(unknown)}`);
    }
  }
}

/** Every order event as consumers read it: the current shape, or a v1 record upcast to it. */
export const orderEventSchema = z.union([currentOrderEventSchema, orderEventV1Schema.transform(upcastOrderEventV1)]);

/** A record's value as an order event, or undefined when it is not JSON or not one. */
export function parseOrderEventValue(value: string): OrderEvent | undefined {
  return parseMessage(orderEventSchema, value);
}

/** The command an order event (or settlement command) was decided from: its id's prefix. */
export function commandIdOf(messageId: string): string {
  const cut = messageId.lastIndexOf(':');
  return cut < 0 ? messageId : messageId.slice(0, cut);
}
