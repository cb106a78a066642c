import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { decimalField } from '../orders/order-fields';

/**
 * What market data decides about contract prices (CONTRACTS.md "Prices, funding, liquidation"):
 * records of market.contract-prices (the ledger's input), of market.contract-price-state (what
 * replicas serve and restart from) and the operator's external index prices (market.index-prices).
 * Ids name the decision (symbol, event time and step at that time), so every copy of one decision has one id.
 */
const contractSymbol = z
  .string()
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/)
  .min(4)
  .max(30);
const indexName = z
  .string()
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/)
  .min(2)
  .max(30);
const signedDecimal = z
  .string()
  .max(60)
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'a plain signed decimal string');
const time = z.number().int().nonnegative();

/** A contract's index or mark price changed at event time `at`. */
export const contractPricesChangedV1 = messageV1(
  'ContractPricesChanged',
  z.object({ symbol: contractSymbol, indexPrice: decimalField, markPrice: decimalField, at: time }),
);

/** A funding interval ended: the rate fixed from its average premium, payable at `markPrice`. */
export const fundingRateFixedV1 = messageV1(
  'FundingRateFixed',
  z.object({
    symbol: contractSymbol,
    fundingTime: time,
    rate: signedDecimal,
    premium: signedDecimal,
    markPrice: decimalField,
  }),
);

export const contractPriceMessageSchema = z.discriminatedUnion('type', [contractPricesChangedV1, fundingRateFixedV1]);

/** The prices decider's state of one contract as of `at`, with what the public answers show of it. */
export const contractPriceStateSavedV1 = messageV1(
  'ContractPriceStateSaved',
  z.object({
    symbol: contractSymbol,
    at: time,
    /** Counts the decider's steps at one event time (0 for the first): a later step of the same time wins over an earlier one. */
    seq: z.number().int().nonnegative(),
    indexPrice: decimalField.optional(),
    markPrice: decimalField.optional(),
    /** The last fixed rate and its time (absent before the first). */
    fundingRate: signedDecimal.optional(),
    fundingTime: time.optional(),
    /** The rate the running interval would fix now, and when it ends. */
    nextFundingRate: signedDecimal,
    nextFundingTime: time,
    /** The fold's own state: the contract's top, the basis samples of the window, the interval's premium samples. */
    bid: decimalField.optional(),
    ask: decimalField.optional(),
    basis: z.array(signedDecimal).max(3600),
    premiumSum: signedDecimal,
    premiumCount: z.number().int().nonnegative(),
  }),
);

/** The operator fed an external price for an index (contracts configured with indexSource "external"). */
export const indexPriceFedV1 = messageV1('IndexPriceFed', z.object({ index: indexName, price: decimalField }));

export type ContractPricesChanged = z.infer<typeof contractPricesChangedV1>;
export type FundingRateFixed = z.infer<typeof fundingRateFixedV1>;
export type ContractPriceMessage = z.infer<typeof contractPriceMessageSchema>;
export type ContractPriceStateSaved = z.infer<typeof contractPriceStateSavedV1>;
export type IndexPriceFed = z.infer<typeof indexPriceFedV1>;
