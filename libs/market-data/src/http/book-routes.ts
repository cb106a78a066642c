import { ApiError, ErrorCode } from '@exchange/platform';
import type { MarketKind } from '../domain';
import { depthWeight, FULL_BOOK_LEVELS } from './quote-params';
import * as s from './quote.schemas';
import { limitQuery, type PublicRoute, symbolQuery } from './route-types';

/** Which family a book route serves: its paths, its symbols (the other family's are -1121) and an example. */
export interface BookFamily {
  prefix: string;
  kind: MarketKind;
  tag: string;
  example: string;
}

/** depth, trades and klines: one answer for spot symbols and contracts alike, each on its family's path. */
export function bookRoutes(f: BookFamily): PublicRoute[] {
  return [
    {
      path: `${f.prefix}/depth`,
      tag: f.tag,
      doc: {
        summary: 'Order book',
        description:
          'limit 1 to 1000 (default 100); 0 returns the whole book up to 5000 levels per side. `lastUpdateId` orders snapshots and is where the diffDepth stream chains on.',
        weight: '1 for limit ≤ 100, 5 for ≤ 500, 10 for ≤ 1000, 50 for 0',
        ok: s.depthSchema,
        query: [symbolQuery(true, f.example), limitQuery('Levels per side: 1–1000 or 0 (default 100).')],
      },
      answer: (p, { answers }) => {
        const market = p.symbol(f.kind);
        const limit = p.limit(100, 0, 1000);
        return {
          weight: depthWeight(limit),
          text: () => answers.depth(market, limit === 0 ? FULL_BOOK_LEVELS : limit),
        };
      },
    },
    {
      path: `${f.prefix}/trades`,
      tag: f.tag,
      doc: {
        summary: 'Recent trades, oldest first',
        weight: 1,
        ok: s.tradesSchema,
        query: [symbolQuery(true, f.example), limitQuery('1–1000 (default 500).')],
      },
      answer: (p, { answers }) => {
        const market = p.symbol(f.kind);
        const limit = p.limit(500, 1, 1000);
        return { weight: 1, text: () => answers.trades(market, limit) };
      },
    },
    klinesRoute(f),
  ];
}

function klinesRoute(f: BookFamily): PublicRoute {
  const contract = f.kind === 'contract';
  return {
    path: `${f.prefix}/klines`,
    tag: f.tag,
    doc: {
      summary: 'Klines (candles), ascending by open time',
      description:
        'startTime alone: the first `limit` from it; endTime alone: the last `limit` opening at or before it; neither: the most recent. Intervals without trades are omitted. 1w opens Monday 00:00 UTC, 1M on the first of the month, UTC.' +
        (contract ? ' Volumes count contracts; quote volumes are USDT (price × contracts × contractMultiplier).' : ''),
      weight: 1,
      ok: s.klinesSchema,
      query: [
        symbolQuery(true, f.example),
        {
          name: 'interval',
          required: true,
          description: 'Kline interval (-1120 otherwise).',
          enum: ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'],
        },
        { name: 'startTime', type: 'integer', description: 'ms' },
        { name: 'endTime', type: 'integer', description: 'ms; not before startTime (-4001)' },
        ...(contract
          ? [
              {
                name: 'to',
                type: 'integer' as const,
                description: "ms; the family's name for endTime (both at once: -1128)",
              },
            ]
          : []),
        limitQuery('1–1000 (default 500).'),
      ],
    },
    answer: (p, { answers }) => {
      const market = p.symbol(f.kind);
      const interval = p.interval();
      const startTime = p.time('startTime');
      const endTime = contract ? p.endTimeOrTo() : p.time('endTime');
      const limit = p.limit(500, 1, 1000);
      if (startTime !== undefined && endTime !== undefined && startTime > endTime)
        throw new ApiError(ErrorCode.START_AFTER_END, 'startTime is after endTime.');
      return { weight: 1, text: () => answers.klines(market, interval, { startTime, endTime, limit }) };
    },
  };
}
