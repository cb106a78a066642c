import { z } from 'zod';
import {
  type DepositRecord,
  type WithdrawalAddressEntry,
  type WithdrawalRecord,
  withdrawalStatusNames,
} from '@exchange/contracts';

/** A withdrawal order with every field of spec 2.13, plus its clientOrderId and chainType. */
export const withdrawalOrderSchema = z.object({
  time: z.string(),
  orderId: z.string(),
  clientOrderId: z.string(),
  accountId: z.string(),
  tokenId: z.string(),
  tokenName: z.string(),
  chainType: z.string(),
  address: z.string(),
  addressExt: z.string(),
  quantity: z.string(),
  arriveQuantity: z.string(),
  statusCode: z.string(),
  status: z.number().int(),
  txid: z.string(),
  txidUrl: z.string(),
  walletHandleTime: z.string(),
  feeTokenId: z.string(),
  feeTokenName: z.string(),
  fee: z.string(),
  requiredConfirmNum: z.number().int(),
  confirmNum: z.number().int(),
  kernelId: z.string(),
  isInternalTransfer: z.boolean(),
});
export type WithdrawalOrderView = z.infer<typeof withdrawalOrderSchema>;

/** A deposit order with the fields of spec 2.12. */
export const depositOrderViewSchema = z.object({
  time: z.string(),
  orderId: z.string(),
  token: z.string(),
  address: z.string(),
  addressTag: z.string(),
  fromAddress: z.string(),
  fromAddressTag: z.string(),
  quantity: z.string(),
});
export type DepositOrderView = z.infer<typeof depositOrderViewSchema>;

/** What the operator sees of a deposit: the order plus where it stands on the chain. */
export const adminDepositSchema = depositOrderViewSchema.extend({
  txid: z.string(),
  status: z.enum(['CONFIRMING', 'CREDITED']),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
});

export const addressEntrySchema = z.object({
  id: z.string(),
  accountId: z.string(),
  tokenId: z.string(),
  chainType: z.string(),
  address: z.string(),
  addressExt: z.string(),
  created: z.number().int(),
});

export function withdrawalView(w: WithdrawalRecord): WithdrawalOrderView {
  return {
    time: String(w.time),
    orderId: w.withdrawalId,
    clientOrderId: w.clientOrderId,
    accountId: w.accountId,
    tokenId: w.asset,
    tokenName: w.asset,
    chainType: w.chainType,
    address: w.address,
    addressExt: w.addressExt,
    quantity: w.quantity,
    // The fee is charged on top (API-DECISIONS.md): what arrives is the quantity.
    arriveQuantity: w.quantity,
    statusCode: withdrawalStatusNames[w.status],
    status: w.status,
    txid: w.txid,
    txidUrl: '',
    walletHandleTime: String(w.updateTime),
    feeTokenId: w.asset,
    feeTokenName: w.asset,
    fee: w.fee,
    requiredConfirmNum: w.requiredConfirmations,
    confirmNum: w.confirmations,
    kernelId: '',
    isInternalTransfer: w.internalTo !== undefined,
  };
}

export function depositView(d: DepositRecord): DepositOrderView {
  return {
    time: String(d.creditTime ?? d.time),
    orderId: d.depositId,
    token: d.asset,
    address: d.address,
    addressTag: d.addressTag,
    fromAddress: d.fromAddress,
    fromAddressTag: d.fromAddressTag,
    quantity: d.quantity,
  };
}

export function adminDepositView(d: DepositRecord): z.infer<typeof adminDepositSchema> {
  return {
    ...depositView(d),
    txid: d.txid,
    status: d.status,
    confirmations: d.confirmations,
    requiredConfirmations: d.requiredConfirmations,
  };
}

export function addressEntryView(e: WithdrawalAddressEntry): z.infer<typeof addressEntrySchema> {
  return {
    id: e.id,
    accountId: e.accountId,
    tokenId: e.tokenId,
    chainType: e.chainType,
    address: e.address,
    addressExt: e.addressExt,
    created: e.created,
  };
}
