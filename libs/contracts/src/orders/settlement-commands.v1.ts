import { z } from 'zod';
import { cancelReasonField, rejectReasonField } from './order-events.v1';
import { decimalField, messageV1, orderIdField, sideField, symbolField } from './order-fields';

/**
 * What the matching engine tells the ledger, on `ledger.commands` keyed by the userId of the
 * account concerned (so each record lands in that user's ordered stream). They are written in
 * the same atomic step as the order.events of the command that caused them, with ids
 * `<commandId>:s<index>`, stable across replays, by which the ledger deduplicates.
 */

/**
 * One step of an order's life the ledger folds into its record of the order and its holds:
 * ACCEPTED (the engine took it), RESTED (its remainder is on the book), FILLED (nothing left:
 * release what the hold kept beyond the trades, for a maker as soon as its last lot trades),
 * CANCELED and REJECTED (release the remainder). remainingQty is the base quantity still open
 * (RESTED) or never to trade (CANCELED, REJECTED); unspentQuote is what a MARKET BUY did not spend.
 */
export const orderOutcomeField = z.enum(['ACCEPTED', 'RESTED', 'FILLED', 'CANCELED', 'REJECTED']);
export type OrderOutcome = z.infer<typeof orderOutcomeField>;

/** First version (v2 in settlement-commands.v2.ts, which upcasts this one on read). */
export const applyOrderOutcomeV1 = messageV1(
  'ApplyOrderOutcome',
  z.object({
    symbol: symbolField,
    orderId: orderIdField,
    clientOrderId: z.string(),
    accountId: orderIdField,
    userId: orderIdField,
    side: sideField,
    outcome: orderOutcomeField,
    /** Why, for CANCELED and REJECTED. */
    reason: z.union([cancelReasonField, rejectReasonField]).optional(),
    remainingQty: decimalField,
    unspentQuote: decimalField,
  }),
);

/** One account's side of a trade: the ledger moves the locked funds and charges the maker or taker fee. */
export const settleTradeLegV1 = messageV1(
  'SettleTradeLeg',
  z.object({
    tradeId: orderIdField,
    symbol: symbolField,
    orderId: orderIdField,
    accountId: orderIdField,
    userId: orderIdField,
    side: sideField,
    price: decimalField,
    qty: decimalField,
    /** price × qty, exact. */
    quoteQty: decimalField,
    isMaker: z.boolean(),
  }),
);

export type ApplyOrderOutcomeV1 = z.infer<typeof applyOrderOutcomeV1>;
export type SettleTradeLegV1 = z.infer<typeof settleTradeLegV1>;
