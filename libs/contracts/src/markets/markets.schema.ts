import { z } from 'zod';

/** A plain positive decimal string such as "0.01": the only way a price or size is written. */
const decimalString = z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'a plain decimal string');

export const symbolStatusSchema = z.enum(['TRADING', 'HALT', 'BREAK']);
export type SymbolStatus = z.infer<typeof symbolStatusSchema>;

/** How the wallet handles an asset: fees, limits, confirmations, the audit threshold, its chains. */
export const assetWalletSchema = z.object({
  /** Charged on top of the withdrawal quantity, in the asset itself. */
  withdrawFee: decimalString.default('0'),
  /** The smallest withdrawal quantity accepted. */
  minWithdraw: decimalString.default('0'),
  /** Confirmations before a deposit is credited and a withdrawal counts as successful. */
  confirmations: z.number().int().min(1).max(1000).default(1),
  /** Withdrawals of a smaller quantity skip both audits (1→3→5 at once); "0" audits every one. */
  autoApproveBelow: decimalString.default('0'),
  /** The chains the asset moves on (the first is the default); empty: only its own chain, named as the asset. */
  chains: z.array(z.string().regex(/^[A-Z0-9]{2,20}$/)).default([]),
});

export const assetConfigSchema = z.object({
  asset: z.string().regex(/^[A-Z0-9]{2,10}$/),
  name: z.string().optional(),
  /** Decimals an amount of this asset may carry, everywhere (balances, fees, transfers). */
  precision: z.number().int().min(0).max(18),
  /** Absent: no fee, no minimum, one confirmation, every withdrawal audited, its own chain. */
  wallet: assetWalletSchema.optional(),
});

export const symbolConfigSchema = z.object({
  symbol: z.string().regex(/^[A-Z0-9]{4,20}$/),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  status: symbolStatusSchema,
  minPrice: decimalString,
  maxPrice: decimalString,
  tickSize: decimalString,
  minQty: decimalString,
  maxQty: decimalString,
  stepSize: decimalString,
  minNotional: decimalString,
  makerFee: decimalString,
  takerFee: decimalString,
  /** Self-trade prevention: what happens to the incoming order when it would meet its own account. */
  selfTradePrevention: z.enum(['CANCEL_TAKER']).default('CANCEL_TAKER'),
});

export const marketsConfigSchema = z.object({
  version: z.number().int().positive(),
  timezone: z.string().default('UTC'),
  assets: z.array(assetConfigSchema).min(1),
  symbols: z.array(symbolConfigSchema),
});

export type AssetConfig = z.infer<typeof assetConfigSchema>;
export type AssetWalletConfig = z.infer<typeof assetWalletSchema>;
export type SymbolConfig = z.infer<typeof symbolConfigSchema>;
export type MarketsConfig = z.infer<typeof marketsConfigSchema>;

/** An asset's wallet settings, the defaults where the file names none. */
export function walletSettingsOf(asset: AssetConfig): AssetWalletConfig {
  return asset.wallet ?? assetWalletSchema.parse({});
}
