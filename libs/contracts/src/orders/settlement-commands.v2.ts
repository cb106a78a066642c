import { z } from 'zod';
import { cancelReasonField, rejectReasonField } from './order-events.v1';
import { amount } from './order-events.v2';
import { decimalField, messageV2, orderIdField, sideField, symbolField } from './order-fields';
import {
  applyOrderOutcomeV1,
  type ApplyOrderOutcomeV1,
  orderOutcomeField,
  settleTradeLegV1,
  type SettleTradeLegV1,
} from './settlement-commands.v1';

/**
 * ApplyOrderOutcome, second version: what changed for the order, named by its id. The ledger
 * knows the order's client id (it assigned the hold), so that is not repeated; amounts that are
 * zero are left out. The engine sends one per order per command: RESTED, FILLED, CANCELED or
 * REJECTED (v1 journals also hold ACCEPTED steps, which change nothing in the ledger). The
 * account, user, symbol and side stay: the ledger checks them against its record of the order.
 */
export const applyOrderOutcomeV2 = messageV2(
  'ApplyOrderOutcome',
  z.object({
    symbol: symbolField,
    orderId: orderIdField,
    accountId: orderIdField,
    userId: orderIdField,
    side: sideField,
    outcome: orderOutcomeField,
    /** Why, for CANCELED and REJECTED. */
    reason: z.union([cancelReasonField, rejectReasonField]).optional(),
    /** Base quantity still open (RESTED) or never to trade (CANCELED, REJECTED); absent: "0". */
    remainingQty: decimalField.optional(),
    /** What a MARKET BUY did not spend; absent: "0". */
    unspentQuote: decimalField.optional(),
  }),
);

export type ApplyOrderOutcome = z.infer<typeof applyOrderOutcomeV2>;

export function upcastApplyOrderOutcomeV1(command: ApplyOrderOutcomeV1): ApplyOrderOutcome {
  const { symbol, orderId, accountId, userId, side, outcome, reason, remainingQty, unspentQuote } = command.payload;
  const payload = {
    symbol,
    orderId,
    accountId,
    userId,
    side,
    outcome,
    ...(reason === undefined ? {} : { reason }),
    ...amount('remainingQty', remainingQty),
    ...amount('unspentQuote', unspentQuote),
  };
  return { type: 'ApplyOrderOutcome', v: 2, id: command.id, ts: command.ts, payload };
}

/**
 * SettleTradeLeg, second version: the leg also names the other side's order (myTrades'
 * matchOrderId). A v1 leg (journals before v2) reads with matchOrderId "0", the family's "unknown".
 */
export const settleTradeLegV2 = messageV2(
  'SettleTradeLeg',
  settleTradeLegV1.shape.payload.extend({ matchOrderId: orderIdField }),
);

export type SettleTradeLeg = z.infer<typeof settleTradeLegV2>;

export function upcastSettleTradeLegV1(command: SettleTradeLegV1): SettleTradeLeg {
  return {
    type: 'SettleTradeLeg',
    v: 2,
    id: command.id,
    ts: command.ts,
    payload: { ...command.payload, matchOrderId: '0' },
  };
}

/** What the engine writes now. */
export const currentSettlementCommandSchema = z.discriminatedUnion('type', [applyOrderOutcomeV2, settleTradeLegV2]);

/** Settlement commands as the ledger reads them: the current shape, or a v1 outcome or leg upcast to it. */
export const settlementCommandSchema = z.union([
  currentSettlementCommandSchema,
  applyOrderOutcomeV1.transform(upcastApplyOrderOutcomeV1),
  settleTradeLegV1.transform(upcastSettleTradeLegV1),
]);

export type SettlementCommand = z.infer<typeof currentSettlementCommandSchema>;
