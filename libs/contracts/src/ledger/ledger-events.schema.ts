import { z } from 'zod';
import { contractJournalEventSchemas } from '../contracts/contract-events.schema';
import { parseMessage } from '../envelope/message';
import { orderTypeField, sideField, timeInForceField } from '../orders/order-fields';
import { orderOutcomeField } from '../orders/settlement-commands.v1';
import { accountTypeSchema, permissionSchema } from './ledger-commands';
import { flowEntrySchema, id, ledgerEventV1, ledgerEventV2, ms, text } from './ledger-event-fields.schema';
import { upcastLedgerEventV1 } from './ledger-order-changes';
import type { AccountRecord, BalanceAfter } from './ledger-events';
import type {
  LedgerJournalEvent,
  LedgerOrderFill,
  LedgerOrderRecord,
  LedgerOrderStep,
  LedgerOrderTerms,
  LedgerTradeRecord,
  LedgerTradingEventV1,
} from './ledger-trading-events';
import { withdrawalRequestFields } from './ledger-withdrawal-commands';
import type { LedgerWithdrawalRecord } from './ledger-withdrawal-events';

/**
 * Runtime schemas of the ledger's journal events, checked where a record of ledger.events enters
 * a consumer. The records are the ledger's own, so the checks are of shape (fields, types,
 * enums), not of the business rules the ledger already applied.
 */
const accountRecordSchema: z.ZodType<AccountRecord> = z.object({
  accountId: id,
  userId: id,
  accountType: accountTypeSchema,
  accountIndex: z.number().int().min(0),
  accountName: text,
});
const balanceAfterSchema: z.ZodType<BalanceAfter> = z.object({ accountId: id, asset: id, free: text, locked: text });
const moved = { flows: z.array(flowEntrySchema), balances: z.array(balanceAfterSchema) };

const orderStatusField = z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PENDING_CANCEL', 'REJECTED']);
const orderTermsShape = {
  orderId: id,
  clientOrderId: text,
  accountId: id,
  symbol: id,
  side: sideField,
  type: orderTypeField,
  timeInForce: timeInForceField,
  price: text,
  origQty: text,
  origQuoteOrderQty: text,
  reservedAsset: text,
  reservedAmount: text,
  marketsVersion: z.number().int(),
};
const orderTermsSchema: z.ZodType<LedgerOrderTerms> = z.object(orderTermsShape);
const orderRecordSchema: z.ZodType<LedgerOrderRecord> = z.object({
  ...orderTermsShape,
  userId: id,
  executedQty: text,
  cummulativeQuoteQty: text,
  status: orderStatusField,
  isWorking: z.boolean(),
  time: ms,
  updateTime: ms,
  finalTime: ms.optional(),
  reservationLeft: text,
});
const orderFillSchema: z.ZodType<LedgerOrderFill> = z.object({
  orderId: id,
  status: orderStatusField,
  executedQty: text,
  cummulativeQuoteQty: text,
  reservationLeft: text,
});
const orderStepSchema: z.ZodType<LedgerOrderStep> = z.object({
  orderId: id,
  status: orderStatusField,
  isWorking: z.boolean(),
});
const releaseSchema = z.object({ asset: id, amount: text });
const tradeRecordSchema: z.ZodType<LedgerTradeRecord> = z.object({
  tradeId: id,
  orderId: id,
  accountId: id,
  symbol: id,
  price: text,
  qty: text,
  quoteQty: text,
  commission: text,
  commissionAsset: text,
  time: ms,
  isBuyer: z.boolean(),
  isMaker: z.boolean(),
});
const withdrawalRecordSchema: z.ZodType<LedgerWithdrawalRecord> = withdrawalRequestFields.extend({
  status: z.enum(['HELD', 'SETTLED', 'RELEASED']),
  time: ms,
  updateTime: ms,
});

/** One schema per event type: a type added to LedgerJournalEvent without its schema does not compile. */
const byType = {
  UserCreated: ledgerEventV1('UserCreated', { name: text, accounts: z.array(accountRecordSchema) }),
  SubAccountCreated: ledgerEventV1('SubAccountCreated', { account: accountRecordSchema }),
  ApiKeyCreated: ledgerEventV1('ApiKeyCreated', {
    apiKey: id,
    accountId: id,
    secretCiphertext: text,
    permissions: z.array(permissionSchema),
  }),
  ApiKeyRevoked: ledgerEventV1('ApiKeyRevoked', { apiKey: id, accountId: id }),
  DepositCredited: ledgerEventV1('DepositCredited', {
    depositId: id,
    accountId: id,
    asset: id,
    amount: text,
    ...moved,
  }),
  FundsTransferred: ledgerEventV1('FundsTransferred', {
    transferId: id,
    fromAccountId: id,
    toAccountId: id,
    asset: id,
    amount: text,
    ...moved,
  }),
  AccountFlagsSet: ledgerEventV1('AccountFlagsSet', {
    accountId: id,
    canTrade: z.boolean(),
    canWithdraw: z.boolean(),
    canDeposit: z.boolean(),
  }),
  CommandRejected: ledgerEventV1('CommandRejected', { commandType: text, code: z.number().int(), msg: text }),
  OrderPlaced: ledgerEventV2('OrderPlaced', { order: orderTermsSchema, balances: z.array(balanceAfterSchema) }),
  OrderCancelRequested: ledgerEventV1('OrderCancelRequested', { order: orderRecordSchema }),
  OrderOutcomeApplied: ledgerEventV2('OrderOutcomeApplied', {
    outcome: orderOutcomeField,
    reason: text.optional(),
    order: orderStepSchema,
    released: releaseSchema.optional(),
    balances: z.array(balanceAfterSchema),
  }),
  TradeSettled: ledgerEventV2('TradeSettled', {
    trade: tradeRecordSchema,
    order: orderFillSchema,
    feeAccountId: id,
    firstFlowId: id,
    flows: z.array(flowEntrySchema).optional(),
    balances: z.array(balanceAfterSchema),
  }),
  WithdrawalHeld: ledgerEventV1('WithdrawalHeld', { withdrawal: withdrawalRecordSchema, ...moved }),
  WithdrawalRepeated: ledgerEventV1('WithdrawalRepeated', { withdrawalId: id, accountId: id, clientOrderId: text }),
  WithdrawalSettled: ledgerEventV1('WithdrawalSettled', {
    withdrawal: withdrawalRecordSchema,
    feeAccountId: id,
    ...moved,
  }),
  WithdrawalReleased: ledgerEventV1('WithdrawalReleased', { withdrawal: withdrawalRecordSchema, ...moved }),
  ...contractJournalEventSchemas,
} satisfies { [T in LedgerJournalEvent['type']]: z.ZodType<Extract<LedgerJournalEvent, { type: T }>> };

/** The v1 spot order events, which carried the whole order record again: read, then upcast. */
const tradingEventV1Schema: z.ZodType<LedgerTradingEventV1> = z.discriminatedUnion('type', [
  ledgerEventV1('OrderPlaced', { order: orderRecordSchema, ...moved }),
  ledgerEventV1('OrderOutcomeApplied', {
    outcome: orderOutcomeField,
    reason: text.optional(),
    order: orderRecordSchema,
    released: releaseSchema.optional(),
    balances: z.array(balanceAfterSchema),
  }),
  ledgerEventV1('TradeSettled', { trade: tradeRecordSchema, order: orderRecordSchema, feeAccountId: id, ...moved }),
]);

const currentEventSchema: z.ZodType<LedgerJournalEvent> = z.discriminatedUnion(
  'type',
  Object.values(byType) as [(typeof byType)[keyof typeof byType], ...(typeof byType)[keyof typeof byType][]],
);

/** Every ledger event as its readers take it: the current shape, or a v1 spot order event upcast to it. */
export const ledgerJournalEventSchema: z.ZodType<LedgerJournalEvent> = z.union([
  currentEventSchema,
  tradingEventV1Schema.transform(upcastLedgerEventV1),
]);

/** A record's value as a ledger event, or undefined when it is not JSON or not one. */
export function parseLedgerEvent(value: string): LedgerJournalEvent | undefined {
  return parseMessage(ledgerJournalEventSchema, value);
}
