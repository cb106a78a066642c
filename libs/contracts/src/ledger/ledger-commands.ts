import { z } from 'zod';
import { messageV1 } from '../envelope/message';

/**
 * Account commands on `ledger.commands` (one family of LedgerCommand), keyed by the userId of the main account (a user's sub-accounts
 * share its partition). Ids are strings of positive integers below 2^53, assigned by the sender.
 */
const id = z.string().regex(/^[1-9]\d{0,15}$/);
const amount = z.string().regex(/^\d+(\.\d+)?$/);

export const accountTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type AccountType = z.infer<typeof accountTypeSchema>;
export const permissionSchema = z.enum(['read', 'trade', 'withdraw']);
export type Permission = z.infer<typeof permissionSchema>;

export const createUserV1 = messageV1(
  'CreateUser',
  z.object({
    userId: id,
    name: z.string().max(100),
    /** The main accounts of types 1, 2 and 3, in that order. */
    accountIds: z.tuple([id, id, id]),
  }),
);

export const createSubAccountV1 = messageV1(
  'CreateSubAccount',
  z.object({
    userId: id,
    accountId: id,
    accountType: z.union([z.literal(1), z.literal(3)]),
    accountName: z.string().min(1).max(64),
  }),
);

export const createApiKeyV1 = messageV1(
  'CreateApiKey',
  z.object({
    userId: id,
    accountId: id,
    apiKey: z.string(),
    /** The secret, encrypted with SECRET_ENCRYPTION_KEY: topics never carry it in clear. */
    secretCiphertext: z.string(),
    permissions: z.array(permissionSchema).min(1),
  }),
);

export const revokeApiKeyV1 = messageV1('RevokeApiKey', z.object({ userId: id, apiKey: z.string() }));

export const creditDepositV1 = messageV1(
  'CreditDeposit',
  z.object({ userId: id, accountId: id, depositId: id, asset: z.string(), amount }),
);

export const transferFundsV1 = messageV1(
  'TransferFunds',
  z.object({ userId: id, transferId: id, fromAccountId: id, toAccountId: id, asset: z.string(), amount }),
);

export const setAccountFlagsV1 = messageV1(
  'SetAccountFlags',
  z.object({
    userId: id,
    accountId: id,
    canTrade: z.boolean().optional(),
    canWithdraw: z.boolean().optional(),
    canDeposit: z.boolean().optional(),
  }),
);

export const ledgerAccountCommandSchema = z.discriminatedUnion('type', [
  createUserV1,
  createSubAccountV1,
  createApiKeyV1,
  revokeApiKeyV1,
  creditDepositV1,
  transferFundsV1,
  setAccountFlagsV1,
]);

export type LedgerAccountCommand = z.infer<typeof ledgerAccountCommandSchema>;
export type CreateUser = z.infer<typeof createUserV1>;
export type CreateSubAccount = z.infer<typeof createSubAccountV1>;
export type CreateApiKey = z.infer<typeof createApiKeyV1>;
export type RevokeApiKey = z.infer<typeof revokeApiKeyV1>;
export type CreditDeposit = z.infer<typeof creditDepositV1>;
export type TransferFunds = z.infer<typeof transferFundsV1>;
export type SetAccountFlags = z.infer<typeof setAccountFlagsV1>;
