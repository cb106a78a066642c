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

/**
 * One risk-limit tier of a contract: a position of up to `quantity` contracts needs
 * `initialMargin` (the inverse of the highest leverage allowed) and is liquidated at `maintMargin`.
 */
export const riskLimitSchema = z.object({
  riskLimitId: z.string().regex(/^[1-9]\d{0,15}$/),
  quantity: decimalString,
  initialMargin: decimalString,
  maintMargin: decimalString,
});

export const DEFAULT_FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;

/**
 * A linear perpetual swap, margined and settled in `marginToken` (USDT). Prices are USDT per unit
 * of the underlying; quantities count contracts of `contractMultiplier` units each. Without
 * `riskLimits` the contract has one tier covering up to maxQty at 5% / 0.5% (20×).
 */
export const contractConfigSchema = z
  .object({
    symbol: z
      .string()
      .regex(/^[A-Z0-9]+(-[A-Z0-9]+)*$/, 'upper-case words joined by hyphens, such as BTC-SWAP-USDT')
      .min(4)
      .max(30),
    /** The spot symbol whose price is the contract's index (or, with indexSource external, the name the operator feeds). */
    index: z.string(),
    /** spot: the index symbol's mid (or last trade); external: the last price fed by POST /admin/v1/index-prices. */
    indexSource: z.enum(['spot', 'external']).default('spot'),
    marginToken: z.string().default('USDT'),
    status: symbolStatusSchema,
    contractMultiplier: decimalString,
    minPrice: decimalString,
    maxPrice: decimalString,
    tickSize: decimalString,
    minQty: decimalString,
    maxQty: decimalString,
    stepSize: decimalString,
    minNotional: decimalString,
    makerFee: decimalString.default('0.0002'),
    takerFee: decimalString.default('0.0006'),
    maxLeverage: decimalString.default('20'),
    riskLimits: z.array(riskLimitSchema).min(1).optional(),
    /** Funding settles at every multiple of this since the epoch (8 h: 00:00, 08:00, 16:00 UTC). */
    fundingIntervalMs: z.number().int().positive().default(DEFAULT_FUNDING_INTERVAL_MS),
    selfTradePrevention: z.enum(['CANCEL_TAKER']).default('CANCEL_TAKER'),
  })
  .transform(({ riskLimits, ...c }) => ({
    ...c,
    riskLimits: riskLimits ?? [{ riskLimitId: '1', quantity: c.maxQty, initialMargin: '0.05', maintMargin: '0.005' }],
  }));

export const marketsConfigSchema = z.object({
  version: z.number().int().positive(),
  timezone: z.string().default('UTC'),
  assets: z.array(assetConfigSchema).min(1),
  symbols: z.array(symbolConfigSchema),
  /** Perpetual contracts (CONTRACTS.md); a section of their own, so no reader of `symbols` ever meets one. */
  contracts: z.array(contractConfigSchema).optional(),
});

export type AssetConfig = z.infer<typeof assetConfigSchema>;
export type AssetWalletConfig = z.infer<typeof assetWalletSchema>;
export type SymbolConfig = z.infer<typeof symbolConfigSchema>;
export type ContractConfig = z.infer<typeof contractConfigSchema>;
export type RiskLimitConfig = z.infer<typeof riskLimitSchema>;
export type MarketsConfig = z.infer<typeof marketsConfigSchema>;

/** An asset's wallet settings, the defaults where the file names none. */
export function walletSettingsOf(asset: AssetConfig): AssetWalletConfig {
  return asset.wallet ?? assetWalletSchema.parse({});
}
