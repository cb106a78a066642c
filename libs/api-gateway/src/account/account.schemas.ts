import { z } from 'zod';
import { decimalStringSchema } from '@exchange/platform';

export const balanceSchema = z
  .object({ asset: z.string(), free: decimalStringSchema, locked: decimalStringSchema })
  .strict();

export const accountSchema = z
  .object({
    balances: z.array(balanceSchema),
    canTrade: z.boolean(),
    canWithdraw: z.boolean(),
    canDeposit: z.boolean(),
  })
  .strict();

export const subAccountSchema = z
  .object({
    accountId: z.string(),
    accountName: z.string().meta({ description: 'Empty for a main account.' }),
    accountType: z.number().int().meta({ description: '1 token trading, 3 contracts' }),
    accountIndex: z.number().int().meta({ description: '0 for a main account' }),
  })
  .strict();

const signedDecimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const balanceFlowSchema = z
  .object({
    id: z.string(),
    accountId: z.string(),
    tokenId: z.string(),
    tokenName: z.string(),
    flowTypeValue: z.number().int(),
    flowType: z.string(),
    flowName: z.string(),
    change: signedDecimal,
    total: decimalStringSchema,
    created: z.string().regex(/^\d+$/),
  })
  .strict();

export const transferResultSchema = z.object({ success: z.literal('true') }).strict();
