import { z } from 'zod';
import { decimalStringSchema } from '@exchange/platform';

const ms = z.number().int().nonnegative().meta({ example: 1767225600000 });
const level = z.tuple([decimalStringSchema, decimalStringSchema]).meta({ description: '[price, quantity]' });

export const depthSchema = z
  .object({
    time: ms.meta({ description: 'Event time of the last change the answer includes.' }),
    lastUpdateId: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'Update id of the last book change included: diffDepth frames chain onto it.' }),
    bids: z.array(level),
    asks: z.array(level),
  })
  .strict();

export const publicTradeSchema = z
  .object({ price: decimalStringSchema, qty: decimalStringSchema, time: ms, isBuyerMaker: z.boolean() })
  .strict();
export const tradesSchema = z.array(publicTradeSchema);

export const klineSchema = z
  .tuple([
    ms,
    decimalStringSchema,
    decimalStringSchema,
    decimalStringSchema,
    decimalStringSchema,
    decimalStringSchema,
    ms,
    decimalStringSchema,
    z.number().int(),
    decimalStringSchema,
    decimalStringSchema,
  ])
  .meta({
    description:
      '[open time, open, high, low, close, volume, close time, quote volume, trades, taker buy base volume, taker buy quote volume]',
  });
export const klinesSchema = z.array(klineSchema);

export const ticker24hSchema = z
  .object({
    time: ms,
    symbol: z.string(),
    bestBidPrice: decimalStringSchema,
    bestAskPrice: decimalStringSchema,
    lastPrice: decimalStringSchema,
    openPrice: decimalStringSchema,
    highPrice: decimalStringSchema,
    lowPrice: decimalStringSchema,
    volume: decimalStringSchema,
  })
  .strict();
export const ticker24hAnswerSchema = z.union([ticker24hSchema, z.array(ticker24hSchema)]);

export const priceSchema = z.object({ price: decimalStringSchema }).strict();
export const symbolPriceSchema = z.object({ symbol: z.string(), price: decimalStringSchema }).strict();
export const priceAnswerSchema = z.union([priceSchema, z.array(symbolPriceSchema)]);

export const bookTickerSchema = z
  .object({
    symbol: z.string(),
    bidPrice: decimalStringSchema,
    bidQty: decimalStringSchema,
    askPrice: decimalStringSchema,
    askQty: decimalStringSchema,
  })
  .strict();
export const bookTickerAnswerSchema = z.union([bookTickerSchema, z.array(bookTickerSchema)]);

const pair = z.string().meta({ example: 'btc-usdt' });

export const v2HealthSchema = z
  .object({ status: z.enum(['ok', 'starting']), serverTime: ms, symbols: z.number().int() })
  .strict();

export const v2ConstantsSchema = z
  .object({
    coins: z.array(z.object({ coin: z.string(), name: z.string(), precision: z.number().int() }).strict()),
    pairs: z.array(
      z
        .object({
          trading_pairs: pair,
          symbol: z.string(),
          base_currency: z.string(),
          quote_currency: z.string(),
          status: z.enum(['TRADING', 'HALT', 'BREAK']),
          tick_size: decimalStringSchema,
          step_size: decimalStringSchema,
          min_qty: decimalStringSchema,
          min_notional: decimalStringSchema,
        })
        .strict(),
    ),
  })
  .strict();

export const v2TickerSchema = z
  .object({
    trading_pairs: pair,
    base_currency: z.string(),
    quote_currency: z.string(),
    last_price: decimalStringSchema,
    lowest_ask: decimalStringSchema,
    highest_bid: decimalStringSchema,
    base_volume: decimalStringSchema,
    quote_volume: decimalStringSchema,
    price_change_percent_24h: z.string().regex(/^-?\d+\.\d{2}$/),
    highest_price_24h: decimalStringSchema,
    lowest_price_24h: decimalStringSchema,
    timestamp: ms,
  })
  .strict();
export const v2TickersSchema = z.array(v2TickerSchema);

export const v2OrderBookSchema = z
  .object({
    trading_pairs: pair,
    timestamp: ms,
    lastUpdateId: z.number().int(),
    bids: z.array(level).max(10),
    asks: z.array(level).max(10),
  })
  .strict();
export const v2OrderBooksSchema = z.array(v2OrderBookSchema);

export const v2TradeSchema = z
  .object({
    trade_id: z.string().regex(/^[1-9]\d*$/),
    price: decimalStringSchema,
    base_volume: decimalStringSchema,
    quote_volume: decimalStringSchema,
    timestamp: ms,
    type: z.enum(['buy', 'sell']),
  })
  .strict();
export const v2TradesAnswerSchema = z.union([
  z.array(v2TradeSchema).max(30),
  z.record(pair, z.array(v2TradeSchema).max(30)),
]);

const signedDecimal = z
  .string()
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/)
  .meta({ example: '0.0001' });

export const contractIndexSchema = z
  .object({
    index: z.record(z.string(), decimalStringSchema).meta({ description: 'Index price by index name (BTCUSDT).' }),
    markPrice: z
      .record(z.string(), decimalStringSchema)
      .meta({ description: 'Mark price by contract (BTC-SWAP-USDT).' }),
  })
  .strict();

export const contractSummarySchema = z
  .object({
    symbol: z.string().meta({ example: 'BTC-SWAP-USDT' }),
    symbolName: z.string(),
    baseToken: z.string(),
    quoteToken: z.string(),
    lastPrice: decimalStringSchema,
    baseVolume: decimalStringSchema.meta({ description: 'Contracts traded in the 24 h window.' }),
    quoteVolume: decimalStringSchema.meta({
      description: 'USDT traded in the 24 h window (price × contracts × contractMultiplier).',
    }),
    bid: decimalStringSchema,
    ask: decimalStringSchema,
    high: decimalStringSchema,
    low: decimalStringSchema,
    productType: z.literal('futures'),
    openInterest: decimalStringSchema.meta({ description: '"0": not published by the ledger yet.' }),
    indexPrice: decimalStringSchema,
    markPrice: decimalStringSchema,
    index: z.string(),
    indexBaseToken: z.string(),
    startTs: ms,
    endTs: ms,
    fundingRate: signedDecimal,
    nextFundingRate: signedDecimal,
    nextFundingRateTs: ms,
  })
  .strict();
export const contractSummariesSchema = z.array(contractSummarySchema);

export const fundingRatesSchema = z.array(
  z.object({
    symbol: z.string(),
    intervalStart: ms,
    intervalEnd: ms,
    rate: z.string().meta({ description: 'Signed decimal: LONG pays SHORT when positive.' }),
  }),
);
