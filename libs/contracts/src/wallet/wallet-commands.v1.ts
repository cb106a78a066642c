import { z } from 'zod';
import { messageV1 } from '../envelope/message';
import { withdrawalRequestFields } from '../ledger/ledger-withdrawal-commands';
import { decimalField, orderIdField } from '../orders/order-fields';

/**
 * Commands on `wallet.commands`, keyed by userId: the wallet's one input. TrackWithdrawal comes
 * from the ledger's outbox once funds are held; the audit and address-book commands from the
 * operator API; the Report* commands from the chain adapter (the simulator, or a real chain).
 */
const ids = { userId: orderIdField };
const text = (max: number) => z.string().max(max);

export const trackWithdrawalV1 = messageV1(
  'TrackWithdrawal',
  withdrawalRequestFields.extend({ heldAt: z.number().int().nonnegative() }),
);
export const approveWithdrawalV1 = messageV1('ApproveWithdrawal', z.object({ ...ids, withdrawalId: orderIdField }));
export const rejectWithdrawalV1 = messageV1(
  'RejectWithdrawal',
  z.object({ ...ids, withdrawalId: orderIdField, reason: text(200) }),
);
/**
 * The chain's word on a broadcast withdrawal: MINED with its txid and confirmations so far (the
 * withdrawal succeeds once they reach the asset's count), or FAILED.
 */
export const reportWithdrawalV1 = messageV1(
  'ReportWithdrawal',
  z.discriminatedUnion('stage', [
    z.object({
      ...ids,
      withdrawalId: orderIdField,
      stage: z.literal('MINED'),
      txid: z.string().min(1).max(200),
      confirmations: z.number().int().min(0).max(1_000_000),
    }),
    z.object({ ...ids, withdrawalId: orderIdField, stage: z.literal('FAILED'), reason: text(200) }),
  ]),
);
/** A transfer to one of the exchange's deposit addresses, as the chain sees it (again and again). */
export const reportDepositV1 = messageV1(
  'ReportDeposit',
  z.object({
    ...ids,
    accountId: orderIdField,
    asset: z.string().min(1).max(20),
    chainType: z.string().min(1).max(20),
    address: z.string().min(1).max(200),
    addressTag: text(200),
    fromAddress: text(200),
    fromAddressTag: text(200),
    txid: z.string().min(1).max(200),
    quantity: decimalField,
    confirmations: z.number().int().min(0).max(1_000_000),
  }),
);
export const addWithdrawalAddressV1 = messageV1(
  'AddWithdrawalAddress',
  z.object({
    ...ids,
    accountId: orderIdField,
    entryId: orderIdField,
    tokenId: z.string().min(1).max(20),
    chainType: z.string().min(1).max(20),
    address: z.string().min(1).max(200),
    addressExt: text(200),
  }),
);
export const removeWithdrawalAddressV1 = messageV1(
  'RemoveWithdrawalAddress',
  z.object({ ...ids, entryId: orderIdField }),
);

export const walletCommandSchema = z.discriminatedUnion('type', [
  trackWithdrawalV1,
  approveWithdrawalV1,
  rejectWithdrawalV1,
  reportWithdrawalV1,
  reportDepositV1,
  addWithdrawalAddressV1,
  removeWithdrawalAddressV1,
]);

export type WalletCommand = z.infer<typeof walletCommandSchema>;
export type TrackWithdrawal = z.infer<typeof trackWithdrawalV1>;
export type ApproveWithdrawal = z.infer<typeof approveWithdrawalV1>;
export type RejectWithdrawal = z.infer<typeof rejectWithdrawalV1>;
export type ReportWithdrawal = z.infer<typeof reportWithdrawalV1>;
export type ReportDeposit = z.infer<typeof reportDepositV1>;
export type AddWithdrawalAddress = z.infer<typeof addWithdrawalAddressV1>;
export type RemoveWithdrawalAddress = z.infer<typeof removeWithdrawalAddressV1>;
