import { z } from 'zod';
import { withdrawalRequestFields } from '../ledger/ledger-withdrawal-commands';
import type { DepositRecord, WithdrawalAddressEntry, WithdrawalRecord, WithdrawalTransition } from './wallet-records';
import { WithdrawalStatus, type WithdrawalStatusCode } from './withdrawal-status';

/**
 * Runtime schemas of the records wallet events carry, checked against their types: a consumer of
 * wallet.events parses with them where a record enters (walletEventSchema).
 */
const statusCodes = Object.values(WithdrawalStatus) as [WithdrawalStatusCode, ...WithdrawalStatusCode[]];
const statusSchema = z.union(statusCodes.map((code) => z.literal(code))) as unknown as z.ZodType<WithdrawalStatusCode>;
const ms = z.number().int().nonnegative();
const count = z.number().int().min(0);

export const withdrawalTransitionSchema: z.ZodType<WithdrawalTransition> = z.object({
  from: z.union([z.literal(0), statusSchema]),
  to: statusSchema,
  time: ms,
});

export const withdrawalRecordSchema: z.ZodType<WithdrawalRecord> = withdrawalRequestFields.extend({
  status: statusSchema,
  time: ms,
  updateTime: ms,
  requiredConfirmations: count,
  confirmations: count,
  txid: z.string(),
  reason: z.string(),
  history: z.array(withdrawalTransitionSchema),
});

export const depositRecordSchema: z.ZodType<DepositRecord> = z.object({
  depositId: z.string().min(1),
  userId: z.string().min(1),
  accountId: z.string().min(1),
  asset: z.string().min(1),
  chainType: z.string(),
  address: z.string(),
  addressTag: z.string(),
  fromAddress: z.string(),
  fromAddressTag: z.string(),
  txid: z.string(),
  quantity: z.string().min(1),
  confirmations: count,
  requiredConfirmations: count,
  status: z.enum(['CONFIRMING', 'CREDITED']),
  time: ms,
  creditTime: ms.optional(),
});

export const withdrawalAddressEntrySchema: z.ZodType<WithdrawalAddressEntry> = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  accountId: z.string().min(1),
  tokenId: z.string().min(1),
  chainType: z.string(),
  address: z.string().min(1),
  addressExt: z.string(),
  created: ms,
});
