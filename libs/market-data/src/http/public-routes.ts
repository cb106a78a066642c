import type { Markets, SymbolStatus } from '@exchange/contracts';
import { ApiError, type Clock, type EndpointDoc, ErrorCode } from '@exchange/platform';
import type { MarketAnswers } from '../views/market-answers';
import { depthWeight, FULL_BOOK_LEVELS, type QuoteParams } from './quote-params';
import * as s from './quote.schemas';

/** What a route needs to answer: its weight (known once the parameters parse) and the JSON text. */
export interface RouteAnswer {
  weight: number;
  text: () => string | Promise<string>;
}

export interface PublicRoute {
  path: string;
  tag: string;
  doc: EndpointDoc;
  answer(params: QuoteParams, ctx: RouteContext): RouteAnswer;
}

export interface RouteContext {
  answers: MarketAnswers;
  markets: Markets;
  clock: Clock;
  isReady: () => boolean;
  statusOf: (symbol: string) => SymbolStatus;
}

const symbolQuery = (required: boolean, example = 'BTCUSDT') => ({ name: 'symbol', required, description: required ? `The symbol (${example}).` : `The symbol (${example}); omitted: every symbol, in an array.` });
const limitQuery = (description: string) => ({ name: 'limit', type: 'integer' as const, description });
const quote = 'public: market data';
const v2 = 'public: v2 market data';

/**
 * The public market endpoints: the openapi family's quote routes and the v2 family. They are
 * plain Fastify routes serving cached JSON text (ARCHITECTURE: hot public GETs), documented from
 * this table into the OpenAPI document.
 */
export const publicRoutes: readonly PublicRoute[] = [
    {
      path: '/openapi/quote/v1/depth',
      tag: quote,
      doc: {
        summary: 'Order book',
        description: 'limit 1 to 1000 (default 100); 0 returns the whole book up to 5000 levels per side. `lastUpdateId` orders snapshots and is where the diffDepth stream chains on.',
        weight: '1 for limit ≤ 100, 5 for ≤ 500, 10 for ≤ 1000, 50 for 0',
        ok: s.depthSchema,
        query: [symbolQuery(true), limitQuery('Levels per side: 1–1000 or 0 (default 100).')],
      },
      answer: (p, { answers }) => {
        const market = p.symbol();
        const limit = p.limit(100, 0, 1000);
        return { weight: depthWeight(limit), text: () => answers.depth(market, limit === 0 ? FULL_BOOK_LEVELS : limit) };
      },
    },
    {
      path: '/openapi/quote/v1/depth/merged',
      tag: quote,
      doc: {
        summary: 'Order book top 40, refreshed at 300 ms event-time cuts',
        weight: 1,
        ok: s.depthSchema,
        query: [symbolQuery(true), limitQuery('Levels per side: 1–40 (default 40).')],
      },
      answer: (p, { answers }) => {
        const market = p.symbol();
        const limit = p.limit(40, 1, 40);
        return { weight: 1, text: () => answers.mergedDepth(market, limit) };
      },
    },
    {
      path: '/openapi/quote/v1/trades',
      tag: quote,
      doc: { summary: 'Recent trades, oldest first', weight: 1, ok: s.tradesSchema, query: [symbolQuery(true), limitQuery('1–1000 (default 500).')] },
      answer: (p, { answers }) => {
        const market = p.symbol();
        const limit = p.limit(500, 1, 1000);
        return { weight: 1, text: () => answers.trades(market, limit) };
      },
    },
    {
      path: '/openapi/quote/v1/klines',
      tag: quote,
      doc: {
        summary: 'Klines (candles), ascending by open time',
        description:
          'startTime alone: the first `limit` from it; endTime alone: the last `limit` opening at or before it; neither: the most recent. Intervals without trades are omitted. 1w opens Monday 00:00 UTC, 1M on the first of the month, UTC.',
        weight: 1,
        ok: s.klinesSchema,
        query: [
          symbolQuery(true),
          { name: 'interval', required: true, description: 'Kline interval (-1120 otherwise).', enum: ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'] },
          { name: 'startTime', type: 'integer', description: 'ms' },
          { name: 'endTime', type: 'integer', description: 'ms; not before startTime (-4001)' },
          limitQuery('1–1000 (default 500).'),
        ],
      },
      answer: (p, { answers }) => {
        const market = p.symbol();
        const interval = p.interval();
        const startTime = p.time('startTime');
        const endTime = p.time('endTime');
        const limit = p.limit(500, 1, 1000);
        if (startTime !== undefined && endTime !== undefined && startTime > endTime) throw new ApiError(ErrorCode.START_AFTER_END, 'startTime is after endTime.');
        return { weight: 1, text: () => answers.klines(market, interval, { startTime, endTime, limit }) };
      },
    },
    {
      path: '/openapi/quote/v1/ticker/24hr',
      tag: quote,
      doc: { summary: 'Rolling 24 h statistics', weight: '1 with symbol, 40 without', ok: s.ticker24hAnswerSchema, query: [symbolQuery(false)] },
      answer: (p, { answers }) => {
        const market = p.optionalSymbol();
        return { weight: market ? 1 : 40, text: () => answers.ticker24h(market) };
      },
    },
    {
      path: '/openapi/quote/v1/ticker/price',
      tag: quote,
      doc: { summary: 'Last price', weight: 1, ok: s.priceAnswerSchema, query: [symbolQuery(false)] },
      answer: (p, { answers }) => {
        const market = p.optionalSymbol();
        return { weight: 1, text: () => answers.price(market) };
      },
    },
    {
      path: '/openapi/quote/v1/ticker/bookTicker',
      tag: quote,
      doc: { summary: 'Best bid and ask', weight: 1, ok: s.bookTickerAnswerSchema, query: [symbolQuery(false)] },
      answer: (p, { answers }) => {
        const market = p.optionalSymbol();
        return { weight: 1, text: () => answers.bookTicker(market) };
      },
    },
  ...v2Routes(),
];

function constants({ markets, statusOf }: RouteContext) {
  return {
    coins: markets.assets.map((a) => ({ coin: a.asset, name: a.name ?? a.asset, precision: a.precision })),
    pairs: markets.symbols.map((c) => ({
      trading_pairs: `${c.baseAsset}-${c.quoteAsset}`.toLowerCase(),
      symbol: c.symbol,
      base_currency: c.baseAsset,
      quote_currency: c.quoteAsset,
      status: statusOf(c.symbol),
      tick_size: c.tickSize,
      step_size: c.stepSize,
      min_qty: c.minQty,
      min_notional: c.minNotional,
    })),
  };
}

function v2Routes(): PublicRoute[] {
  const pairQuery = (required: boolean) => symbolQuery(required, 'btc-usdt');
  return [
    {
      path: '/api/v2/health',
      tag: v2,
      doc: { summary: 'Health: ok once market data has caught up with the event log', weight: 1, ok: s.v2HealthSchema },
      answer: (_p, { isReady, clock, markets }) => ({ weight: 1, text: () => JSON.stringify({ status: isReady() ? 'ok' : 'starting', serverTime: clock.now(), symbols: markets.symbols.length }) }),
    },
    {
      path: '/api/v2/constants',
      tag: v2,
      doc: { summary: 'Coins and pairs with their precisions and rules', weight: 1, ok: s.v2ConstantsSchema },
      answer: (_p, ctx) => ({ weight: 1, text: () => JSON.stringify(constants(ctx)) }),
    },
    {
      path: '/api/v2/ticker',
      tag: v2,
      doc: { summary: 'Ticker of one pair', weight: 1, ok: s.v2TickerSchema, query: [pairQuery(true)] },
      answer: (p, { answers }) => {
        const market = p.v2Symbol();
        return { weight: 1, text: () => answers.v2Ticker(market) };
      },
    },
    {
      path: '/api/v2/tickers',
      tag: v2,
      doc: { summary: 'Tickers of every pair', weight: 1, ok: s.v2TickersSchema },
      answer: (_p, { answers }) => ({ weight: 1, text: () => answers.v2Ticker(undefined) }),
    },
    {
      path: '/api/v2/orderbook',
      tag: v2,
      doc: { summary: '10 bid and 10 ask levels of one pair', weight: 1, ok: s.v2OrderBookSchema, query: [pairQuery(true)] },
      answer: (p, { answers }) => {
        const market = p.v2Symbol();
        return { weight: 1, text: () => answers.v2OrderBook(market) };
      },
    },
    {
      path: '/api/v2/orderbooks',
      tag: v2,
      doc: { summary: '10 bid and 10 ask levels of every pair', weight: 1, ok: s.v2OrderBooksSchema },
      answer: (_p, { answers }) => ({ weight: 1, text: () => answers.v2OrderBook(undefined) }),
    },
    {
      path: '/api/v2/trades',
      tag: v2,
      doc: { summary: 'The last 30 trades of a pair, newest first; without symbol, of every pair keyed by pair', weight: 1, ok: s.v2TradesAnswerSchema, query: [pairQuery(false)] },
      answer: (p, { answers }) => {
        const market = p.optionalV2Symbol();
        return { weight: 1, text: () => answers.v2Trades(market) };
      },
    },
  ];
}
