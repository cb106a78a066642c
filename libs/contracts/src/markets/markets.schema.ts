import { z } from 'zod';

/** A plain positive decimal string such as "0.01": the only way a price or size is written. */
const decimalString = z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'a plain decimal string');

export const symbolStatusSchema = z.enum(['TRADING', 'HALT', 'BREAK']);
export type SymbolStatus = z.infer<typeof symbolStatusSchema>;

export const assetConfigSchema = z.object({
  asset: z.string().regex(/^[A-Z0-9]{2,10}$/),
  name: z.string().optional(),
  /** Decimals an amount of this asset may carry, everywhere (balances, fees, transfers). */
  precision: z.number().int().min(0).max(18),
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
export type SymbolConfig = z.infer<typeof symbolConfigSchema>;
export type MarketsConfig = z.infer<typeof marketsConfigSchema>;
