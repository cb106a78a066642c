import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { decimalField, orderIdField } from '../orders/order-fields';
import {
  continueFundingV1,
  continueLiquidationV1,
  markContractPriceV1,
  seedInsuranceFundV1,
  settleFundingV1,
  triggerContractStopsV1,
} from './contract-risk-commands.v1';
import { adlCandidatesV1, applyAdlV1, collectAdlCandidatesV1 } from './contract-adl-commands.v1';

/**
 * Perpetual-contract commands (CONTRACTS.md), decided by the ledger's contracts domain. They are
 * plain data, ready to travel on `ledger.commands` (key userId) once the ledger's processing
 * switches them on: the gateway sends PlaceContractOrder and ModifyPositionMargin, the engine the
 * fills and ends, the ledger's transfer into a type-3 account the credit.
 */
export const contractSymbolField = z
  .string()
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/)
  .min(4)
  .max(30);
/** BUY_OPEN / SELL_OPEN open or add to LONG / SHORT; SELL_CLOSE / BUY_CLOSE reduce them. */
export const contractSideField = z.enum(['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE']);
export const positionSideField = z.enum(['LONG', 'SHORT']);
/** A plain decimal string with an optional minus sign: margin added (positive) or removed (negative). */
export const signedDecimalField = z
  .string()
  .max(41)
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'a plain signed decimal string');

const accountFields = { userId: orderIdField, accountId: orderIdField };

export const creditContractAccountV1 = messageV1(
  'CreditContractAccount',
  z.object({ ...accountFields, creditId: orderIdField, amount: decimalField }),
);

/** USDT leaving a contracts account's free balance (a transfer out of account type 3). */
export const debitContractAccountV1 = messageV1(
  'DebitContractAccount',
  z.object({ ...accountFields, debitId: orderIdField, amount: decimalField }),
);

/** How the engine treats an order's remainder; LIMIT_MAKER is refused if it would take (the family lists it as a time in force). */
export const contractTimeInForceField = z.enum(['GTC', 'IOC', 'FOK', 'LIMIT_MAKER']);
/** How the gateway chose the price (CONTRACTS.md): kept on the order record for its views. */
export const contractPriceTypeField = z.enum(['INPUT', 'OPPONENT', 'QUEUE', 'OVER', 'MARKET']);

export const placeContractOrderV1 = messageV1(
  'PlaceContractOrder',
  z.object({
    ...accountFields,
    orderId: orderIdField,
    symbol: contractSymbolField,
    side: contractSideField,
    /** The limit price the margin is locked at (the gateway resolves OPPONENT, QUEUE, OVER and MARKET to one). */
    price: decimalField,
    /** Contracts. */
    quantity: decimalField,
    /** OPEN orders only: 1 to the tier's maximum. */
    leverage: decimalField.optional(),
    /** The markets configuration version the gateway checked the filters against. */
    marketsVersion: z.number().int().positive(),
    /** STOP: held off the book until the last price crosses triggerPrice (BUY_* at or above, SELL_* at or below). */
    orderType: z.enum(['LIMIT', 'STOP']).optional(),
    triggerPrice: decimalField.optional(),
    /** Unique per account among its open contract orders (the family requires one). */
    clientOrderId: z.string().min(1).max(64).optional(),
    /** Absent: GTC. */
    timeInForce: contractTimeInForceField.optional(),
    priceType: contractPriceTypeField.optional(),
  }),
);

/** A user's cancel of an open contract order, by orderId or clientOrderId. */
export const requestContractCancelV1 = messageV1(
  'RequestContractCancel',
  z
    .object({ ...accountFields, orderId: orderIdField.optional(), clientOrderId: z.string().min(1).max(64).optional() })
    .refine((p) => p.orderId !== undefined || p.clientOrderId !== undefined, {
      message: 'orderId or clientOrderId is required',
    }),
);

export const fillContractOrderV1 = messageV1(
  'FillContractOrder',
  z.object({
    ...accountFields,
    orderId: orderIdField,
    symbol: contractSymbolField,
    tradeId: orderIdField,
    price: decimalField,
    quantity: decimalField,
    isMaker: z.boolean(),
  }),
);

/** The engine ended an order's remainder: a cancel, or an IOC/FOK remainder (EXPIRED). */
export const endContractOrderV1 = messageV1(
  'EndContractOrder',
  z.object({
    ...accountFields,
    orderId: orderIdField,
    symbol: contractSymbolField,
    status: z.enum(['CANCELED', 'EXPIRED', 'REJECTED']),
    /** The engine's reason (USER, IOC_REMAINDER, LIMIT_MAKER_WOULD_TAKE, SYMBOL_NOT_TRADING, ...). */
    reason: z.string().max(40).optional(),
  }),
);

export const modifyPositionMarginV1 = messageV1(
  'ModifyPositionMargin',
  z.object({
    ...accountFields,
    symbol: contractSymbolField,
    side: positionSideField,
    amount: signedDecimalField,
    /** The mark price a removal is checked against (part 2 supplies its own). */
    markPrice: decimalField,
  }),
);

export const contractCommandSchema = z.discriminatedUnion('type', [
  creditContractAccountV1,
  debitContractAccountV1,
  placeContractOrderV1,
  fillContractOrderV1,
  endContractOrderV1,
  modifyPositionMarginV1,
  seedInsuranceFundV1,
  settleFundingV1,
  markContractPriceV1,
  triggerContractStopsV1,
  collectAdlCandidatesV1,
  adlCandidatesV1,
  applyAdlV1,
  continueFundingV1,
  continueLiquidationV1,
]);

export type ContractSide = z.infer<typeof contractSideField>;
export type PositionSide = z.infer<typeof positionSideField>;
export type CreditContractAccount = z.infer<typeof creditContractAccountV1>;
export type DebitContractAccount = z.infer<typeof debitContractAccountV1>;
export type RequestContractCancel = z.infer<typeof requestContractCancelV1>;
export type ContractTimeInForce = z.infer<typeof contractTimeInForceField>;
export type ContractPriceType = z.infer<typeof contractPriceTypeField>;
export type PlaceContractOrder = z.infer<typeof placeContractOrderV1>;
export type FillContractOrder = z.infer<typeof fillContractOrderV1>;
export type EndContractOrder = z.infer<typeof endContractOrderV1>;
export type ModifyPositionMargin = z.infer<typeof modifyPositionMarginV1>;
export type ContractCommand = z.infer<typeof contractCommandSchema>;
export type ContractOrderType = 'LIMIT' | 'STOP';
