import { z } from 'zod';
import { messageV1, parseMessage } from '../envelope/message';
import {
  decimalField,
  orderIdField,
  orderTypeField,
  sideField,
  symbolField,
  timeInForceField,
} from '../orders/order-fields';
import { applyOrderOutcomeV1, settleTradeLegV1 } from '../orders/settlement-commands.v1';
import {
  applyOrderOutcomeV2,
  settleTradeLegV2,
  upcastApplyOrderOutcomeV1,
  upcastSettleTradeLegV1,
} from '../orders/settlement-commands.v2';
import { ledgerAccountCommandSchema } from './ledger-commands';
import { ledgerWithdrawalCommandSchema } from './ledger-withdrawal-commands';
import {
  modifyPositionMarginV1,
  placeContractOrderV1,
  requestContractCancelV1,
} from '../contracts/contract-commands.v1';
import {
  continueFundingV1,
  continueLiquidationV1,
  markContractPriceV1,
  seedInsuranceFundV1,
  settleFundingV1,
  triggerContractStopsV1,
} from '../contracts/contract-risk-commands.v1';
import { adlCandidatesV1, applyAdlV1, collectAdlCandidatesV1 } from '../contracts/contract-adl-commands.v1';

/**
 * Trading commands on `ledger.commands`, keyed by userId. The gateway sends PlaceOrder and
 * RequestCancel after checking formats and filters; the matching engine sends the settlement
 * commands of contracts/orders (ApplyOrderOutcome, SettleTradeLeg), accepted here unchanged.
 * They form their own union, joined with the other families in `ledgerCommandSchema` below.
 */
const clientOrderIdField = z.string().min(1).max(64);

export const placeOrderV1 = messageV1(
  'PlaceOrder',
  z.object({
    userId: orderIdField,
    accountId: orderIdField,
    /** Assigned by the gateway (rule 7): increasing, unique across replicas. */
    orderId: orderIdField,
    clientOrderId: clientOrderIdField,
    symbol: symbolField,
    side: sideField,
    type: orderTypeField,
    timeInForce: timeInForceField,
    /** LIMIT and LIMIT_MAKER. */
    price: decimalField.optional(),
    /** Base quantity: LIMIT, LIMIT_MAKER and MARKET SELL. */
    quantity: decimalField.optional(),
    /** The quote amount a MARKET BUY spends. */
    quoteOrderQty: decimalField.optional(),
    /** The markets configuration version the gateway checked the filters against. */
    marketsVersion: z.number().int().positive(),
  }),
);

/** A user's cancel, by orderId or by clientOrderId (at least one; both must name the same order). */
export const requestCancelV1 = messageV1(
  'RequestCancel',
  z
    .object({
      userId: orderIdField,
      accountId: orderIdField,
      orderId: orderIdField.optional(),
      clientOrderId: clientOrderIdField.optional(),
    })
    .refine((p) => p.orderId !== undefined || p.clientOrderId !== undefined, {
      message: 'orderId or clientOrderId is required',
    }),
);

export const ledgerTradingCommandSchema = z.discriminatedUnion('type', [
  placeOrderV1,
  requestCancelV1,
  applyOrderOutcomeV2,
  settleTradeLegV2,
]);

/**
 * The contract requests the gateway sends on `ledger.commands`. The engine's outcomes and trade
 * legs of contract orders arrive as the spot settlement commands above, and the ledger routes
 * them by symbol; transfers to and from account type 3 are TransferFunds.
 */
export const ledgerContractCommandSchema = z.discriminatedUnion('type', [
  placeContractOrderV1,
  requestContractCancelV1,
  modifyPositionMarginV1,
]);

/**
 * Contract commands of no user, written to a chosen partition of `ledger.commands` (one copy per
 * partition, ids derived from what they carry): the relay's mark prices, funding fixes and last
 * prices, the operator's insurance seeding, one partition's auto-deleveraging requests to the
 * others (contract-adl-commands.v1.ts), and the continuations the ledger writes to its own
 * partition (a funding or liquidation past one command's id space). Each partition decides them
 * for its own accounts.
 */
export const ledgerPartitionCommandSchema = z.discriminatedUnion('type', [
  markContractPriceV1,
  settleFundingV1,
  triggerContractStopsV1,
  seedInsuranceFundV1,
  collectAdlCandidatesV1,
  adlCandidatesV1,
  applyAdlV1,
  continueFundingV1,
  continueLiquidationV1,
]);

/**
 * Everything the ledger decides: the account commands, the trading family and the withdrawal
 * family, in their current versions; an ApplyOrderOutcome or SettleTradeLeg v1 (journals before
 * v2) is upcast.
 */
export const ledgerCommandSchema = z.union([
  z.discriminatedUnion('type', [
    ...ledgerAccountCommandSchema.options,
    ...ledgerTradingCommandSchema.options,
    ...ledgerWithdrawalCommandSchema.options,
    ...ledgerContractCommandSchema.options,
    ...ledgerPartitionCommandSchema.options,
  ]),
  applyOrderOutcomeV1.transform(upcastApplyOrderOutcomeV1),
  settleTradeLegV1.transform(upcastSettleTradeLegV1),
]);

export type PlaceOrder = z.infer<typeof placeOrderV1>;
export type RequestCancel = z.infer<typeof requestCancelV1>;
export type LedgerTradingCommand = z.infer<typeof ledgerTradingCommandSchema>;
export type LedgerCommand = z.infer<typeof ledgerCommandSchema>;

/** A record's value as a ledger command, or undefined when it is not JSON or not one. */
export function parseLedgerCommand(value: string): LedgerCommand | undefined {
  return parseMessage(ledgerCommandSchema, value);
}
export type LedgerPartitionCommand = z.infer<typeof ledgerPartitionCommandSchema>;
