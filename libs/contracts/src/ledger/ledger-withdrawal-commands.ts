import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { decimalField, orderIdField } from '../orders/order-fields';

/**
 * Withdrawal commands on `ledger.commands`, keyed by userId. The gateway sends RequestWithdrawal
 * (the ledger holds quantity + fee and keeps clientOrderId unique per account); the wallet sends
 * SettleWithdrawal when the withdrawal succeeded and ReleaseWithdrawal when it was rejected or
 * failed. Both are idempotent by withdrawalId.
 */
export const walletClientOrderIdField = z.string().regex(/^[A-Za-z0-9_\-:.]{1,64}$/);

/** The receiving account of a withdrawal to an address of this exchange. */
export const internalRecipientField = z.object({ userId: orderIdField, accountId: orderIdField });
export type InternalRecipient = z.infer<typeof internalRecipientField>;

/** What a withdrawal request says: the same fields travel from the gateway through the ledger to the wallet. */
export const withdrawalRequestFields = z.object({
  userId: orderIdField,
  accountId: orderIdField,
  /** Assigned by the gateway (IdGenerator): the withdrawal's orderId everywhere. */
  withdrawalId: orderIdField,
  clientOrderId: walletClientOrderIdField,
  asset: z.string().min(1).max(20),
  /** The chain the asset leaves on: one of the asset's configured chains, or the asset itself. */
  chainType: z.string().min(1).max(20),
  address: z.string().min(1).max(200),
  addressExt: z.string().max(200),
  quantity: decimalField,
  /** Charged on top of the quantity ("0" for a transfer to another account of this exchange). */
  fee: decimalField,
  internalTo: internalRecipientField.optional(),
});
export type WithdrawalRequestFields = z.infer<typeof withdrawalRequestFields>;

export const requestWithdrawalV1 = messageV1('RequestWithdrawal', withdrawalRequestFields);
export const settleWithdrawalV1 = messageV1(
  'SettleWithdrawal',
  z.object({ userId: orderIdField, accountId: orderIdField, withdrawalId: orderIdField }),
);
export const releaseWithdrawalV1 = messageV1(
  'ReleaseWithdrawal',
  z.object({ userId: orderIdField, accountId: orderIdField, withdrawalId: orderIdField }),
);

export const ledgerWithdrawalCommandSchema = z.discriminatedUnion('type', [
  requestWithdrawalV1,
  settleWithdrawalV1,
  releaseWithdrawalV1,
]);

export type RequestWithdrawal = z.infer<typeof requestWithdrawalV1>;
export type SettleWithdrawal = z.infer<typeof settleWithdrawalV1>;
export type ReleaseWithdrawal = z.infer<typeof releaseWithdrawalV1>;
export type LedgerWithdrawalCommand = z.infer<typeof ledgerWithdrawalCommandSchema>;
