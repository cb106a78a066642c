import { z } from 'zod';
import { clockTickedV1 } from './clock-ticked.v1';
import {
  decimalField,
  messageV1,
  orderIdField,
  orderTypeField,
  sideField,
  symbolField,
  symbolStatusField,
  timeInForceField,
} from './order-fields';

/**
 * Events on `order.events`, keyed by symbol, first version (v2 in order-events.v2.ts): the
 * matching engine's journal, read by market-data. They mirror the engine's domain events in decimal strings, with account and
 * user ids where the domain has owner ids. Every event of one command has `id` =
 * `<commandId>:<index>` and `ts` = the command's ts, so a replay or a redelivery reproduces them
 * byte for byte and consumers deduplicate by id. Trade ids and book update ids are per symbol,
 * from 1, without gaps.
 */
const base = { symbol: symbolField, commandId: z.string().min(1) };
const owner = { orderId: orderIdField, clientOrderId: z.string(), accountId: orderIdField, userId: orderIdField };

export const cancelReasonField = z.enum([
  'USER',
  'IOC_REMAINDER',
  'FOK_NOT_FILLABLE',
  'MARKET_NO_LIQUIDITY',
  'SELF_TRADE_PREVENTION',
]);
/** The engine's own reasons, then the ones found converting the command at its boundary. */
export const rejectReasonField = z.enum([
  'LIMIT_MAKER_WOULD_TAKE',
  'SYMBOL_NOT_TRADING',
  'DUPLICATE_ORDER_ID',
  'INVALID_ORDER',
  'UNKNOWN_SYMBOL',
  'INVALID_PRICE',
  'INVALID_QUANTITY',
  'INVALID_QUOTE_AMOUNT',
]);
export type CancelReason = z.infer<typeof cancelReasonField>;
export type RejectReason = z.infer<typeof rejectReasonField>;

/** The order passed every check and is about to match; its own terms ("0" where a field does not apply). */
export const orderAcceptedV1 = messageV1(
  'OrderAccepted',
  z.object({
    ...base,
    ...owner,
    side: sideField,
    orderType: orderTypeField,
    timeInForce: timeInForceField,
    price: decimalField,
    quantity: decimalField,
    quoteAmount: decimalField,
  }),
);

/** One trade at the maker's price; quoteQty = price × qty exactly. Remainders are after this trade. */
export const tradeExecutedV1 = messageV1(
  'TradeExecuted',
  z.object({
    ...base,
    tradeId: orderIdField,
    price: decimalField,
    qty: decimalField,
    quoteQty: decimalField,
    takerOrderId: orderIdField,
    makerOrderId: orderIdField,
    takerClientOrderId: z.string(),
    makerClientOrderId: z.string(),
    takerAccountId: orderIdField,
    makerAccountId: orderIdField,
    takerUserId: orderIdField,
    makerUserId: orderIdField,
    takerSide: sideField,
    isBuyerMaker: z.boolean(),
    /** "0": the maker order is filled and off the book. */
    makerRemainingQty: decimalField,
    /** "0" for a MARKET BUY, which is sized by quote. */
    takerRemainingQty: decimalField,
    /** What a MARKET BUY has not spent yet of its quoteAmount; "0" for every other taker. */
    takerRemainingQuote: decimalField,
  }),
);

/** The order's remainder now rests on the book. */
export const orderRestedV1 = messageV1(
  'OrderRested',
  z.object({ ...base, ...owner, side: sideField, price: decimalField, restingQty: decimalField }),
);

/** The incoming order traded everything its terms allow; unspentQuote (MARKET BUY) is released. */
export const orderFilledV1 = messageV1(
  'OrderFilled',
  z.object({ ...base, ...owner, side: sideField, unspentQuote: decimalField }),
);

/** The order ended without trading its remainder: remainingQty never trades, unspentQuote (MARKET BUY) is released. */
export const orderCanceledV1 = messageV1(
  'OrderCanceled',
  z.object({
    ...base,
    ...owner,
    side: sideField,
    reason: cancelReasonField,
    remainingQty: decimalField,
    unspentQuote: decimalField,
  }),
);

export const orderRejectedV1 = messageV1(
  'OrderRejected',
  z.object({ ...base, ...owner, side: sideField, orderType: orderTypeField, reason: rejectReasonField }),
);

/** No resting order with that id belongs to the account (never placed, already final, or someone else's). */
export const cancelRejectedV1 = messageV1(
  'CancelRejected',
  z.object({
    ...base,
    orderId: orderIdField,
    accountId: orderIdField,
    userId: orderIdField,
    reason: z.literal('UNKNOWN_ORDER'),
  }),
);

/** [price, total quantity at that price]; quantity "0" removes the level. */
export const bookLevelField = z.tuple([decimalField, decimalField]);

/**
 * Every L2 change one command made, folded into one message. Update ids chain: a consumer at
 * update id u applies the next BookChanged whose updateIdFirst is u + 1.
 */
export const bookChangedV1 = messageV1(
  'BookChanged',
  z.object({
    ...base,
    updateIdFirst: z.number().int().positive(),
    updateIdLast: z.number().int().positive(),
    bids: z.array(bookLevelField),
    asks: z.array(bookLevelField),
  }),
);

export const symbolStatusChangedV1 = messageV1('SymbolStatusChanged', z.object({ ...base, status: symbolStatusField }));

/** The first version of every order event: what journals written before v2 hold (read through `orderEventSchema`). */
export const orderEventV1Schema = z.discriminatedUnion('type', [
  orderAcceptedV1,
  tradeExecutedV1,
  orderRestedV1,
  orderFilledV1,
  orderCanceledV1,
  orderRejectedV1,
  cancelRejectedV1,
  bookChangedV1,
  symbolStatusChangedV1,
  clockTickedV1,
]);

export type OrderEventV1 = z.infer<typeof orderEventV1Schema>;
export type OrderRejected = z.infer<typeof orderRejectedV1>;
export type CancelRejected = z.infer<typeof cancelRejectedV1>;
export type SymbolStatusChanged = z.infer<typeof symbolStatusChangedV1>;
export type BookLevel = z.infer<typeof bookLevelField>;
