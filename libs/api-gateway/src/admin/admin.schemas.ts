import { z } from 'zod';
import { ApiError } from '@exchange/platform';
import { assertPlainStrings, isId } from './admin-params';

const id = z.string().refine(isId, 'expected a positive integer id below 2^53');
/** Names of assets, tokens and chains: short words (the markets file decides which exist). */
const word = z.string().max(32);
const amount = z.union([z.string(), z.number()]).transform(String);

export const createUserBody = z.object({ name: z.string().max(100).optional() }).strict();
export const createSubAccountBody = z
  .object({ accountName: z.string().min(1).max(64), accountType: z.union([z.literal(1), z.literal(3)]).optional() })
  .strict();
export const createApiKeyBody = z
  .object({ accountId: id, permissions: z.array(z.enum(['read', 'trade', 'withdraw'])).min(1) })
  .strict();
export const depositBody = z
  .object({
    accountId: id,
    asset: word,
    amount: amount.pipe(z.string().max(64)),
    address: z.string().max(200).optional(),
    txid: z.string().max(200).optional(),
    confirmations: z.number().int().min(0).max(1_000_000).optional(),
    chainType: word.optional(),
  })
  .strict();
export const depositAddressBody = z.object({ accountId: id, tokenId: word, chainType: word.optional() }).strict();
export const depositAddressSchema = z.object({
  address: z.string(),
  addressTag: z.string(),
  tokenId: z.string(),
  chainType: z.string(),
});
export const withdrawalAddressBody = z
  .object({
    accountId: id,
    tokenId: word,
    address: z.string().min(1).max(200),
    addressExt: z.string().max(200).optional(),
    chainType: word.optional(),
  })
  .strict();
export const reasonBody = z.object({ reason: z.string().max(200).optional() }).strict();
export const chainConfirmBody = z.object({ confirmations: z.number().int().min(0).max(1_000_000).optional() }).strict();
export const symbolStatusBody = z.object({ status: z.enum(['TRADING', 'HALT', 'BREAK']) }).strict();
export const symbolRecordSchema = z.object({
  symbol: z.string(),
  status: z.enum(['TRADING', 'HALT', 'BREAK']),
  baseAsset: z.string(),
  quoteAsset: z.string(),
});
export const flagsBody = z
  .object({ canTrade: z.boolean().optional(), canWithdraw: z.boolean().optional(), canDeposit: z.boolean().optional() })
  .strict();

export const userCreatedSchema = z.object({
  userId: z.string(),
  accounts: z.array(z.object({ accountId: z.string(), accountType: z.number().int(), accountIndex: z.number().int() })),
});
export const subAccountCreatedSchema = z.object({
  accountId: z.string(),
  accountName: z.string(),
  accountType: z.number().int(),
  accountIndex: z.number().int(),
});
export const apiKeyCreatedSchema = z.object({
  apiKey: z.string(),
  secretKey: z.string(),
  accountId: z.string(),
  permissions: z.array(z.string()),
});
export const apiKeyListSchema = z.array(
  z.object({ apiKey: z.string(), accountId: z.string(), permissions: z.array(z.string()), created: z.number().int() }),
);
export const adminAccountSchema = z.object({
  accountId: z.string(),
  balances: z.array(z.object({ asset: z.string(), free: z.string(), locked: z.string() })),
  canTrade: z.boolean(),
  canWithdraw: z.boolean(),
  canDeposit: z.boolean(),
});
/** Parses an operator request body; the first problem becomes the family's error. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  assertPlainStrings(body);
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  const given = issue.path.reduce<unknown>(
    (value, key) =>
      value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined,
    body,
  );
  if (issue.path.length > 0 && given === undefined) throw ApiError.missing(field);
  throw ApiError.invalid(field, issue.message);
}
