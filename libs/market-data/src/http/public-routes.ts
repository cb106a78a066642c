import { bookRoutes } from './book-routes';
import { contractRoutes } from './contract-routes';
import * as s from './quote.schemas';
import { limitQuery, type PublicRoute, type RouteContext, symbolQuery } from './route-types';

export type { PublicRoute, RouteAnswer, RouteContext } from './route-types';

const quote = 'public: market data';
const v2 = 'public: v2 market data';

/**
 * The public market endpoints: the openapi family's quote routes and the v2 family. They are
 * plain Fastify routes serving cached JSON text (ARCHITECTURE: hot public GETs), documented from
 * this table into the OpenAPI document.
 */
export const publicRoutes: readonly PublicRoute[] = [
  ...bookRoutes({ prefix: '/openapi/quote/v1', kind: 'spot', tag: quote, example: 'BTCUSDT' }),
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
    path: '/openapi/quote/v1/ticker/24hr',
    tag: quote,
    doc: {
      summary: 'Rolling 24 h statistics',
      weight: '1 with symbol, 40 without',
      ok: s.ticker24hAnswerSchema,
      query: [symbolQuery(false)],
    },
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
  ...contractRoutes(),
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
      answer: (_p, { isReady, clock, markets }) => ({
        weight: 1,
        text: () =>
          JSON.stringify({
            status: isReady() ? 'ok' : 'starting',
            serverTime: clock.now(),
            symbols: markets.symbols.length,
          }),
      }),
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
      doc: {
        summary: '10 bid and 10 ask levels of one pair',
        weight: 1,
        ok: s.v2OrderBookSchema,
        query: [pairQuery(true)],
      },
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
      doc: {
        summary: 'The last 30 trades of a pair, newest first; without symbol, of every pair keyed by pair',
        weight: 1,
        ok: s.v2TradesAnswerSchema,
        query: [pairQuery(false)],
      },
      answer: (p, { answers }) => {
        const market = p.optionalV2Symbol();
        return { weight: 1, text: () => answers.v2Trades(market) };
      },
    },
  ];
}
