import type { ContractConfig, Markets } from '@exchange/contracts';
import { ApiError, ErrorCode } from '@exchange/platform';
import { bookRoutes } from './book-routes';
import * as s from './quote.schemas';
import type { QuoteParams } from './quote-params';
import type { PublicRoute } from './route-types';

const tag = 'public: contract market data';

/**
 * The contract family's public routes (CONTRACTS.md "Public data", the family's Contract API):
 * depth, trades and klines of contract books, the index and mark prices, and the summary of
 * every contract. A spot symbol on these paths is -1121, as a contract is on the spot ones.
 */
export function contractRoutes(): PublicRoute[] {
  return [
    ...bookRoutes({ prefix: '/openapi/quote/v1/contract', kind: 'contract', tag, example: 'BTC-SWAP-USDT' }),
    {
      path: '/openapi/quote/v1/contract/index',
      tag,
      doc: {
        summary: 'Index prices (keyed by index) and mark prices (keyed by contract)',
        description:
          "The index is the configured spot symbol's mid price (its last trade while a side is empty) or the operator's external price; the mark is the index plus the one-minute moving average of the contract's basis, clamped to ±0.5% of the index. Both move with event time. A contract not priced yet is left out.",
        weight: 1,
        ok: s.contractIndexSchema,
        query: [
          { name: 'symbol', description: 'An index (BTCUSDT) or a contract (BTC-SWAP-USDT); omitted: every contract.' },
        ],
      },
      answer: (p, { answers, markets }) => {
        const only = indexFilter(p, markets);
        return { weight: 1, text: () => answers.contractIndex(only) };
      },
    },
    {
      path: '/openapi/contract/v1/fundingRate',
      tag,
      doc: {
        summary: 'Funding rates: the running interval (state=current, default) or the last fixed one (state=past)',
        description:
          "current: the rate the running interval would fix now, from its average premium (CONTRACTS.md's formula); past: the last interval's fixed rate, which the ledger paid between positions at that interval's end. Times in ms.",
        weight: 1,
        ok: s.fundingRatesSchema,
        query: [
          { name: 'symbol', description: 'A contract; omitted: every contract.' },
          { name: 'state', description: 'current (default) or past', enum: ['current', 'past'] },
        ],
      },
      answer: (p, { answers, markets }) => {
        const state = p.optionalText('state') ?? 'current';
        if (state !== 'current' && state !== 'past') throw ApiError.invalid('state', 'current or past');
        const only = indexFilter(p, markets);
        return { weight: 1, text: () => answers.fundingRates(state, only) };
      },
    },
    {
      path: '/openapi/v1/contracts',
      tag,
      doc: {
        summary: 'Summary of every contract: 24 h figures, best prices, index, mark and funding rates',
        description:
          'Volumes and high/low over the 24 h event-time window (`startTs`..`endTs`, ms); `fundingRate` is the last fixed rate, `nextFundingRate` what the running interval would fix now, at `nextFundingRateTs` (ms). `openInterest` is "0": open positions live in the ledger, which does not publish them to market data yet.',
        weight: 1,
        ok: s.contractSummariesSchema,
      },
      answer: (_p, { answers }) => ({ weight: 1, text: () => answers.contractSummaries() }),
    },
  ];
}

function indexFilter(p: QuoteParams, markets: Markets): ContractConfig[] | undefined {
  const symbol = p.optionalText('symbol');
  if (symbol === undefined) return undefined;
  const only = markets.contracts.filter((c) => c.symbol === symbol || c.index === symbol);
  if (only.length === 0) throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol.slice(0, 40)}'.`);
  return only;
}
