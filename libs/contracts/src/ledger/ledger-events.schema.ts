import { z } from 'zod';
import { contractJournalEventSchemas } from '../contracts/contract-events.schema';
import { parseMessage } from '../envelope/message';
import { orderTypeField, sideField, timeInForceField } from '../orders/order-fields';
import { orderOutcomeField } from '../orders/settlement-commands.v1';
import { accountTypeSchema, permissionSchema } from './ledger-commands';
import { flowEntrySchema, id, ledgerEventV1, ms, text } from './ledger-event-fields.schema';
import type { AccountRecord, BalanceAfter } from './ledger-events';
import type { LedgerJournalEvent, LedgerOrderRecord, LedgerTradeRecord } from './ledger-trading-events';
import { withdrawalRequestFields } from './ledger-withdrawal-commands';
import type { LedgerWithdrawalRecord } from './ledger-withdrawal-events';

/**
 * Runtime schemas of the ledger's journal events, checked where a record of ledger.events enters
 * a consumer. The records are the ledger's own, so the checks are of shape (fields, types,
 * enums), not of the business rules the ledger already applied.
 */
const accountRecordSchema: z.ZodType<AccountRecord> = z.object({ accountId: id, userId: id, accountType: accountTypeSchema, accountIndex: z.number().int().min(0), accountName: text });
const balanceAfterSchema: z.ZodType<BalanceAfter> = z.object({ accountId: id, asset: id, free: text, locked: text });
const moved = { flows: z.array(flowEntrySchema), balances: z.array(balanceAfterSchema) };

const orderRecordSchema: z.ZodType<LedgerOrderRecord> = z.object({
  orderId: id,
  clientOrderId: text,
  accountId: id,
  userId: id,
  symbol: id,
  side: sideField,
  type: orderTypeField,
  timeInForce: timeInForceField,
  price: text,
  origQty: text,
  origQuoteOrderQty: text,
  executedQty: text,
  cummulativeQuoteQty: text,
  status: z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PENDING_CANCEL', 'REJECTED']),
  isWorking: z.boolean(),
  time: ms,
  updateTime: ms,
  finalTime: ms.optional(),
  reservedAsset: text,
  reservedAmount: text,
  reservationLeft: text,
  marketsVersion: z.number().int(),
});
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
const withdrawalRecordSchema: z.ZodType<LedgerWithdrawalRecord> = withdrawalRequestFields.extend({ status: z.enum(['HELD', 'SETTLED', 'RELEASED']), time: ms, updateTime: ms });

/** One schema per event type: a type added to LedgerJournalEvent without its schema does not compile. */
const byType = {
  UserCreated: ledgerEventV1('UserCreated', { name: text, accounts: z.array(accountRecordSchema) }),
  SubAccountCreated: ledgerEventV1('SubAccountCreated', { account: accountRecordSchema }),
  ApiKeyCreated: ledgerEventV1('ApiKeyCreated', { apiKey: id, accountId: id, secretCiphertext: text, permissions: z.array(permissionSchema) }),
  ApiKeyRevoked: ledgerEventV1('ApiKeyRevoked', { apiKey: id, accountId: id }),
  DepositCredited: ledgerEventV1('DepositCredited', { depositId: id, accountId: id, asset: id, amount: text, ...moved }),
  FundsTransferred: ledgerEventV1('FundsTransferred', { transferId: id, fromAccountId: id, toAccountId: id, asset: id, amount: text, ...moved }),
  AccountFlagsSet: ledgerEventV1('AccountFlagsSet', { accountId: id, canTrade: z.boolean(), canWithdraw: z.boolean(), canDeposit: z.boolean() }),
  CommandRejected: ledgerEventV1('CommandRejected', { commandType: text, code: z.number().int(), msg: text }),
  OrderPlaced: ledgerEventV1('OrderPlaced', { order: orderRecordSchema, ...moved }),
  OrderCancelRequested: ledgerEventV1('OrderCancelRequested', { order: orderRecordSchema }),
  OrderOutcomeApplied: ledgerEventV1('OrderOutcomeApplied', {
    outcome: orderOutcomeField,
    reason: text.optional(),
    order: orderRecordSchema,
    released: z.object({ asset: id, amount: text }).optional(),
    balances: z.array(balanceAfterSchema),
  }),
  TradeSettled: ledgerEventV1('TradeSettled', { trade: tradeRecordSchema, order: orderRecordSchema, feeAccountId: id, ...moved }),
  WithdrawalHeld: ledgerEventV1('WithdrawalHeld', { withdrawal: withdrawalRecordSchema, ...moved }),
  WithdrawalRepeated: ledgerEventV1('WithdrawalRepeated', { withdrawalId: id, accountId: id, clientOrderId: text }),
  WithdrawalSettled: ledgerEventV1('WithdrawalSettled', { withdrawal: withdrawalRecordSchema, feeAccountId: id, ...moved }),
  WithdrawalReleased: ledgerEventV1('WithdrawalReleased', { withdrawal: withdrawalRecordSchema, ...moved }),
  ...contractJournalEventSchemas,
} satisfies { [T in LedgerJournalEvent['type']]: z.ZodType<Extract<LedgerJournalEvent, { type: T }>> };

export const ledgerJournalEventSchema: z.ZodType<LedgerJournalEvent> = z.discriminatedUnion('type', Object.values(byType) as [(typeof byType)[keyof typeof byType], ...(typeof byType)[keyof typeof byType][]]);

/** A record's value as a ledger event, or undefined when it is not JSON or not one. */
export function parseLedgerEvent(value: string): LedgerJournalEvent | undefined {
  return parseMessage(ledgerJournalEventSchema, value);
}
