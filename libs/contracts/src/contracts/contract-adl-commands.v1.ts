import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { decimalField } from '../orders/order-fields';

/**
 * Auto-deleveraging across ledger partitions (CONTRACTS.md "Liquidation"). The partition whose
 * fund took a bankrupt position over asks every other partition for opposite positions, each
 * answers from its own fold with what it reserved, and the requester sends back the legs it chose.
 * They travel on `ledger.commands` by partition number, written in the sender's atomic step, with
 * ids derived from the ADL's id, so a repeat is a processed id. Amounts are computed by the ledger:
 * no length cap, as its events.
 */
const computedDecimal = z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'a plain decimal string');
const signedDecimal = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'a plain signed decimal string');
const adlId = z.string().min(1).max(200);
const accountId = z.string().regex(/^[1-9]\d{0,15}$/);
const partition = z.number().int().nonnegative();
// Declared here rather than imported: contract-commands.v1 gathers these commands into its union.
const contractSymbolField = z
  .string()
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/)
  .min(4)
  .max(30);
const positionSideField = z.enum(['LONG', 'SHORT']);

/** One opposite position offered: its rank (unrealised PnL at the mark × leverage) and the quantity reserved. */
export const adlCandidateField = z.object({ accountId, score: signedDecimal, quantity: computedDecimal });

/** The requester asks for opposite positions of `side`'s bankrupt position: `quantity` contracts, ranked at `markPrice`. */
export const collectAdlCandidatesV1 = messageV1(
  'CollectAdlCandidates',
  z.object({
    adlId,
    symbol: contractSymbolField,
    side: positionSideField,
    quantity: decimalField,
    markPrice: decimalField,
    requester: partition,
  }),
);

/**
 * A partition's answer: the positions it reserved for the ADL, best first (possibly none), and what
 * it held for other running ADLs of the symbol then (the requester asks again for what is left).
 */
export const adlCandidatesV1 = messageV1(
  'AdlCandidates',
  z.object({ adlId, from: partition, candidates: z.array(adlCandidateField), heldForOthers: computedDecimal }),
);

/** What the requester took of a partition's reservation: each leg closes at `value` (its share of the bankruptcy value); the rest is released. */
export const applyAdlV1 = messageV1(
  'ApplyAdl',
  z.object({
    adlId,
    symbol: contractSymbolField,
    side: positionSideField,
    legs: z.array(z.object({ accountId, quantity: computedDecimal, value: computedDecimal })),
  }),
);

export type AdlCandidate = z.infer<typeof adlCandidateField>;
export type CollectAdlCandidates = z.infer<typeof collectAdlCandidatesV1>;
export type AdlCandidates = z.infer<typeof adlCandidatesV1>;
export type ApplyAdl = z.infer<typeof applyAdlV1>;
