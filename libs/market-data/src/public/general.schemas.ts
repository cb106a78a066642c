import { z } from 'zod';
import { decimalStringSchema } from '@exchange/platform';

export const pingSchema = z.object({}).strict();
export const timeSchema = z.object({ serverTime: z.number().int().meta({ example: 1767225600000 }) }).strict();

export const pairSchema = z.object({ symbol: z.string(), quoteToken: z.string(), baseToken: z.string() }).strict();
export const pairsSchema = z.array(pairSchema);

const rateLimitSchema = z
  .object({
    rateLimitType: z.enum(['REQUESTS_WEIGHT', 'ORDERS']),
    interval: z.enum(['SECOND', 'MINUTE', 'DAY']),
    intervalNum: z.number().int().positive(),
    limit: z.number().int().positive(),
  })
  .strict();

const filterSchema = z.discriminatedUnion('filterType', [
  z
    .object({
      filterType: z.literal('PRICE_FILTER'),
      minPrice: decimalStringSchema,
      maxPrice: decimalStringSchema,
      tickSize: decimalStringSchema,
    })
    .strict(),
  z
    .object({
      filterType: z.literal('LOT_SIZE'),
      minQty: decimalStringSchema,
      maxQty: decimalStringSchema,
      stepSize: decimalStringSchema,
    })
    .strict(),
  z.object({ filterType: z.literal('MIN_NOTIONAL'), minNotional: decimalStringSchema }).strict(),
]);

export const symbolRecordSchema = z
  .object({
    symbol: z.string().meta({ example: 'BTCUSDT' }),
    status: z.enum(['TRADING', 'HALT', 'BREAK']),
    baseAsset: z.string(),
    baseAssetPrecision: decimalStringSchema,
    quoteAsset: z.string(),
    quotePrecision: decimalStringSchema,
    icebergAllowed: z.boolean(),
    filters: z.array(filterSchema),
  })
  .strict();

const riskLimitSchema = z
  .object({
    riskLimitId: z.string(),
    quantity: decimalStringSchema,
    initialMargin: decimalStringSchema,
    maintMargin: decimalStringSchema,
  })
  .strict();

export const contractRecordSchema = z
  .object({
    filters: z.array(filterSchema),
    exchangeId: z.string(),
    symbol: z.string().meta({ example: 'BTC-SWAP-USDT' }),
    symbolName: z.string(),
    status: z.enum(['TRADING', 'HALT', 'BREAK']),
    baseAsset: z.string().meta({ description: 'The contract itself.' }),
    baseAssetPrecision: decimalStringSchema,
    quoteAsset: z.string(),
    quoteAssetPrecision: decimalStringSchema,
    icebergAllowed: z.boolean(),
    inverse: z.boolean(),
    index: z.string().meta({ example: 'BTCUSDT' }),
    marginToken: z.string(),
    marginPrecision: decimalStringSchema,
    contractMultiplier: decimalStringSchema,
    maxLeverage: decimalStringSchema,
    makerFee: decimalStringSchema,
    takerFee: decimalStringSchema,
    fundingIntervalMs: z.number().int().positive(),
    riskLimits: z.array(riskLimitSchema),
  })
  .strict();

export const brokerInfoSchema = z
  .object({
    timezone: z.string(),
    serverTime: z.number().int(),
    rateLimits: z.array(rateLimitSchema),
    brokerFilters: z.array(z.unknown()),
    symbols: z.array(symbolRecordSchema).optional(),
    options: z.array(z.unknown()).optional().meta({ description: 'Options trading is not built yet: always empty.' }),
    contracts: z
      .array(contractRecordSchema)
      .optional()
      .meta({ description: "Perpetual contracts (linear, USDT-margined): the family's fields." }),
  })
  .strict();
