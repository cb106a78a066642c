import { z } from 'zod';
import {
  decimal,
  flowEntrySchema,
  id,
  ledgerEventV1,
  ms,
  signedDecimal,
  text,
} from '../ledger/ledger-event-fields.schema';
import {
  contractPriceTypeField,
  contractSideField,
  contractTimeInForceField,
  positionSideField,
} from './contract-commands.v1';
import type { ContractBalanceAfter, ContractOrderChange, ContractOrderRecord, PositionAfter } from './contract-events';
import type { ContractJournalEvent } from './contract-journal';
import type { DeleveragedCounterparty, FundingPayment } from './contract-risk-events';

/**
 * Runtime schemas of the contracts events the ledger journals, spread into ledgerJournalEventSchema.
 * Amounts the decider computes and that may go below zero (PnL, funding, a margin change, what the
 * fund could not cover) are signed; the rest are plain decimals, as the types document them.
 */
const balanceSchema: z.ZodType<ContractBalanceAfter> = z.object({
  accountId: id,
  free: decimal,
  locked: decimal,
  positionMargin: decimal,
});

const positionSchema: z.ZodType<PositionAfter> = z.object({
  accountId: id,
  symbol: id,
  side: positionSideField,
  size: decimal,
  available: decimal,
  opening: decimal,
  entryValue: decimal,
  avgPrice: decimal,
  margin: decimal,
  realizedPnl: signedDecimal,
  leverage: decimal,
  flp: decimal,
});

const statusSchema = z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);

const orderSchema: z.ZodType<ContractOrderRecord> = z.object({
  orderId: id,
  accountId: id,
  userId: id,
  symbol: id,
  side: contractSideField,
  price: decimal,
  quantity: decimal,
  leverage: decimal,
  executedQty: decimal,
  marginLocked: decimal,
  marginLeft: decimal,
  status: statusSchema,
  time: ms,
  marketsVersion: z.number().int(),
  orderType: z.enum(['LIMIT', 'STOP']),
  triggerPrice: decimal.optional(),
  timeInForce: contractTimeInForceField.optional(),
  clientOrderId: text.optional(),
  priceType: contractPriceTypeField.optional(),
});

const orderChangeSchema: z.ZodType<ContractOrderChange> = z.object({
  orderId: id,
  executedQty: decimal,
  marginLeft: decimal,
  status: statusSchema,
});

const fundingPaymentSchema: z.ZodType<FundingPayment> = z.object({
  accountId: id,
  side: positionSideField,
  amount: signedDecimal,
  position: positionSchema,
  balance: balanceSchema,
});

const counterpartySchema: z.ZodType<DeleveragedCounterparty> = z.object({
  accountId: id,
  side: positionSideField,
  quantity: decimal,
  value: decimal,
  pnl: signedDecimal,
  uncovered: signedDecimal,
  position: positionSchema,
  balance: balanceSchema,
});

const partitionNumber = z.number().int().nonnegative();
const adlCandidateSchema = z.object({ accountId: id, score: signedDecimal, quantity: decimal });

/** What a liquidation and a deleveraging both report of the bankrupt position. */
const bankrupt = {
  accountId: id,
  symbol: id,
  side: positionSideField,
  markPrice: decimal,
  size: decimal,
  loss: signedDecimal,
  bankruptcyValue: signedDecimal,
  position: positionSchema,
  balance: balanceSchema,
  flows: z.array(flowEntrySchema),
};

const orderEnd = { accountId: id, symbol: id, side: contractSideField, order: orderChangeSchema };

/** One schema per contracts event type: checked with the others in ledger-events.schema.ts. */
export const contractJournalEventSchemas = {
  ContractAccountCredited: ledgerEventV1('ContractAccountCredited', {
    creditId: id,
    accountId: id,
    amount: decimal,
    balance: balanceSchema,
  }),
  ContractAccountDebited: ledgerEventV1('ContractAccountDebited', {
    debitId: id,
    accountId: id,
    amount: decimal,
    balance: balanceSchema,
  }),
  ContractOrderPlaced: ledgerEventV1('ContractOrderPlaced', {
    order: orderSchema,
    balance: balanceSchema,
    position: positionSchema,
  }),
  ContractOrderFilled: ledgerEventV1('ContractOrderFilled', {
    ...orderEnd,
    tradeId: id,
    price: decimal,
    quantity: decimal,
    isMaker: z.boolean(),
    fee: signedDecimal,
    feeToken: id,
    pnl: signedDecimal,
    uncovered: signedDecimal,
    time: ms.optional(),
    matchOrderId: id.optional(),
    position: positionSchema,
    balance: balanceSchema,
    feeAccount: balanceSchema,
    flows: z.array(flowEntrySchema),
  }),
  ContractOrderEnded: ledgerEventV1('ContractOrderEnded', {
    ...orderEnd,
    released: decimal,
    balance: balanceSchema,
    position: positionSchema,
    reason: text.optional(),
  }),
  PositionMarginModified: ledgerEventV1('PositionMarginModified', {
    accountId: id,
    symbol: id,
    side: positionSideField,
    amount: signedDecimal,
    position: positionSchema,
    balance: balanceSchema,
  }),
  InsuranceFundSeeded: ledgerEventV1('InsuranceFundSeeded', {
    seedId: id,
    amount: decimal,
    balance: balanceSchema,
    flows: z.array(flowEntrySchema).optional(),
  }),
  FundingSettled: ledgerEventV1('FundingSettled', {
    symbol: id,
    fundingTime: ms,
    rate: signedDecimal,
    markPrice: decimal,
    payments: z.array(fundingPaymentSchema),
    remainder: signedDecimal,
    uncovered: signedDecimal,
    insurance: balanceSchema,
    // The clearing account nets funding across partitions: its free balance goes below zero.
    clearing: z.object({ accountId: id, free: signedDecimal, locked: decimal, positionMargin: decimal }).optional(),
    flows: z.array(flowEntrySchema),
  }),
  PositionLiquidated: ledgerEventV1('PositionLiquidated', { ...bankrupt, fundPosition: positionSchema }),
  PositionDeleveraged: ledgerEventV1('PositionDeleveraged', {
    ...bankrupt,
    counterparties: z.array(counterpartySchema),
  }),
  ContractStopTriggered: ledgerEventV1('ContractStopTriggered', {
    accountId: id,
    symbol: id,
    lastPrice: decimal,
    order: orderSchema,
  }),
  ContractMarkPriced: ledgerEventV1('ContractMarkPriced', {
    symbol: id,
    fundAccountId: id,
    markPrice: decimal,
    indexPrice: decimal,
    at: ms,
  }),
  ContractCancelRequested: ledgerEventV1('ContractCancelRequested', {
    order: orderSchema,
    reason: z.literal('LIQUIDATION').optional(),
  }),
  ContractOrderRested: ledgerEventV1('ContractOrderRested', { accountId: id, symbol: id, orderId: id }),
  AdlRequested: ledgerEventV1('AdlRequested', {
    adlId: id,
    symbol: id,
    side: positionSideField,
    quantity: decimal,
    bankruptcyValue: signedDecimal,
    markPrice: decimal,
    requester: partitionNumber,
    partitions: z.array(partitionNumber),
    round: z.number().int().positive(),
    fundPosition: positionSchema,
    candidates: z.array(adlCandidateSchema),
    reserved: z.array(positionSchema),
    heldForOthers: decimal,
  }),
  AdlCandidatesReserved: ledgerEventV1('AdlCandidatesReserved', {
    adlId: id,
    fundAccountId: id,
    requester: partitionNumber,
    from: partitionNumber,
    symbol: id,
    side: positionSideField,
    candidates: z.array(adlCandidateSchema),
    reserved: z.array(positionSchema),
    heldForOthers: decimal,
  }),
  AdlCandidatesReceived: ledgerEventV1('AdlCandidatesReceived', {
    adlId: id,
    from: partitionNumber,
    candidates: z.array(adlCandidateSchema),
    heldForOthers: decimal,
  }),
  AdlResolved: ledgerEventV1('AdlResolved', {
    adlId: id,
    symbol: id,
    side: positionSideField,
    legs: z.array(z.object({ partition: partitionNumber, accountId: id, quantity: decimal, value: signedDecimal })),
    partitions: z.array(partitionNumber),
    taken: decimal,
    pnl: signedDecimal,
    uncovered: signedDecimal,
    fundPosition: positionSchema,
    fundBalance: balanceSchema,
    flows: z.array(flowEntrySchema),
  }),
  AdlApplied: ledgerEventV1('AdlApplied', {
    adlId: id,
    fundAccountId: id,
    symbol: id,
    counterparties: z.array(counterpartySchema),
    released: z.array(positionSchema),
    flows: z.array(flowEntrySchema),
  }),
  FundingContinued: ledgerEventV1('FundingContinued', {
    symbol: id,
    fundAccountId: id,
    fundingTime: ms,
    rate: signedDecimal,
    markPrice: decimal,
    after: text,
    origin: text,
    part: z.number().int().min(2),
  }),
  LiquidationContinued: ledgerEventV1('LiquidationContinued', {
    symbol: id,
    fundAccountId: id,
    marketsVersion: z.number().int().positive(),
    origin: text,
    part: z.number().int().min(2),
  }),
} satisfies { [T in ContractJournalEvent['type']]: z.ZodType<Extract<ContractJournalEvent, { type: T }>> };
