import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { decimalField, orderIdField } from '../orders/order-fields';

/**
 * The commands of perpetuals part 2 (CONTRACTS.md "Prices, funding, liquidation"). Prices are
 * computed upstream, by whoever folds the market (market-data's contract-prices domain), and arrive
 * here as data: the ledger journals the price it acted on, so a replay needs no market history.
 */
const contractSymbol = z
  .string()
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/)
  .min(4)
  .max(30);
/** A plain decimal with an optional minus sign (a funding rate is negative when shorts pay). */
const signedDecimal = z
  .string()
  .max(41)
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'a plain signed decimal string');

/** The operator adds USDT to the insurance fund. */
export const seedInsuranceFundV1 = messageV1(
  'SeedInsuranceFund',
  z.object({ seedId: orderIdField, amount: decimalField }),
);

/** One funding interval of one symbol ended: idempotent per (symbol, fundingTime). */
export const settleFundingV1 = messageV1(
  'SettleFunding',
  z.object({
    symbol: contractSymbol,
    fundingTime: z.number().int().nonnegative(),
    rate: signedDecimal,
    markPrice: decimalField,
  }),
);

/**
 * Where a settlement too large for one command continues (the ledger's id space gives a command
 * 512 flows): the first part's command id and the number of the part this command is (2, 3, …).
 * Each part's id is `<origin>/part:<part>`, so a repeat of a part is a processed id.
 */
const continuationFields = { origin: z.string().min(1).max(180), part: z.number().int().min(2) };

/**
 * The next part of a SettleFunding whose partition holds more positions of the symbol than one
 * command may pay: the positions after `after` (a position key, the last the previous part paid),
 * in key order. The ledger writes it to its own partition in the step that decided the part before.
 */
export const continueFundingV1 = messageV1(
  'ContinueFunding',
  z.object({
    symbol: contractSymbol,
    fundingTime: z.number().int().nonnegative(),
    rate: signedDecimal,
    markPrice: decimalField,
    after: z.string().min(1).max(200),
    ...continuationFields,
  }),
);

/**
 * The rest of a liquidation cascade one command could not journal: the symbol is judged again at
 * the mark the partition keeps. Written by the ledger to its own partition, as ContinueFunding.
 */
export const continueLiquidationV1 = messageV1(
  'ContinueLiquidation',
  z.object({ symbol: contractSymbol, marketsVersion: z.number().int().positive(), ...continuationFields }),
);

/** A new mark price: positions it crosses are liquidated, and the fund's open positions get IOC close orders. */
export const markContractPriceV1 = messageV1(
  'MarkContractPrice',
  // marketsVersion: the configuration the fund's closing orders are checked against, as PlaceContractOrder's.
  z.object({
    symbol: contractSymbol,
    markPrice: decimalField,
    indexPrice: decimalField,
    marketsVersion: z.number().int().positive(),
  }),
);

/** A new last trade price: STOP orders it crosses are released to the book. */
export const triggerContractStopsV1 = messageV1(
  'TriggerContractStops',
  z.object({ symbol: contractSymbol, lastPrice: decimalField }),
);

export type SeedInsuranceFund = z.infer<typeof seedInsuranceFundV1>;
export type SettleFunding = z.infer<typeof settleFundingV1>;
export type MarkContractPrice = z.infer<typeof markContractPriceV1>;
export type TriggerContractStops = z.infer<typeof triggerContractStopsV1>;
export type ContinueFunding = z.infer<typeof continueFundingV1>;
export type ContinueLiquidation = z.infer<typeof continueLiquidationV1>;
