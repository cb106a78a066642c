import { z } from 'zod';
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
import { parseMessage } from '../envelope/message';

/**
 * Commands on `order.commands`, keyed by symbol: one partition holds one book's whole ordered
 * stream, status changes included. The matching engine is the only consumer. `id` is the command
 * id (the engine applies each id once) and `ts` the sender's decision time, which the engine
 * copies onto every event the command causes.
 */

/**
 * A new order the ledger has already funded. Which size field is set depends on the type: LIMIT
 * and LIMIT_MAKER carry price and quantity, a MARKET SELL quantity (base), a MARKET BUY
 * quoteAmount (the quote to spend). Combinations are checked by the engine, not here, so a
 * wrong one becomes an OrderRejected the ledger learns about instead of a dropped record.
 */
export const submitOrderV1 = messageV1(
  'SubmitOrder',
  z.object({
    symbol: symbolField,
    orderId: orderIdField,
    clientOrderId: z.string().min(1).max(64),
    accountId: orderIdField,
    userId: orderIdField,
    side: sideField,
    type: orderTypeField,
    timeInForce: timeInForceField,
    price: decimalField.optional(),
    quantity: decimalField.optional(),
    quoteAmount: decimalField.optional(),
    /** The markets configuration version the gateway checked the filters against. */
    marketsVersion: z.number().int().positive(),
  }),
);

/** Cancels a resting order; the engine checks that it belongs to `accountId`. */
export const cancelOrderV1 = messageV1(
  'CancelOrder',
  z.object({ symbol: symbolField, orderId: orderIdField, accountId: orderIdField, userId: orderIdField }),
);

/** An operator's status change (TRADING, HALT, BREAK), ordered with the symbol's orders. */
export const setSymbolStatusV1 = messageV1(
  'SetSymbolStatus',
  z.object({ symbol: symbolField, status: symbolStatusField }),
);

export const orderCommandSchema = z.discriminatedUnion('type', [submitOrderV1, cancelOrderV1, setSymbolStatusV1]);

export type OrderCommand = z.infer<typeof orderCommandSchema>;

/** A record's value as an order command, or undefined when it is not JSON or not one. */
export function parseOrderCommandValue(value: string): OrderCommand | undefined {
  return parseMessage(orderCommandSchema, value);
}
export type SubmitOrder = z.infer<typeof submitOrderV1>;
export type CancelOrder = z.infer<typeof cancelOrderV1>;
export type SetSymbolStatus = z.infer<typeof setSymbolStatusV1>;
export type OrderCommandType = OrderCommand['type'];
