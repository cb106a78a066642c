import type { Markets, SymbolStatus } from '@exchange/contracts';
import type { Clock, EndpointDoc } from '@exchange/platform';
import type { MarketAnswers } from '../views/market-answers';
import type { QuoteParams } from './quote-params';

/** What a route needs to answer: its weight (known once the parameters parse) and the JSON, as text or UTF-8. */
export interface RouteAnswer {
  weight: number;
  text: () => string | Buffer | Promise<string | Buffer>;
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

export const symbolQuery = (required: boolean, example = 'BTCUSDT') => ({
  name: 'symbol',
  required,
  description: required ? `The symbol (${example}).` : `The symbol (${example}); omitted: every symbol, in an array.`,
});
export const limitQuery = (description: string) => ({ name: 'limit', type: 'integer' as const, description });
