import Decimal from 'decimal.js';

/** Exact decimals with room for every sum and average of prices: rounding only where the rules say. */
export const PriceDecimal = Decimal.clone({ precision: 60 });
export type PriceDecimal = Decimal;

/** A spot book's top and last trade, as of the event time the fold has reached. */
export interface SpotQuote {
  bid?: PriceDecimal;
  ask?: PriceDecimal;
  last?: PriceDecimal;
}

/**
 * Where a contract's index price comes from: a port, so an operator-fed external price can stand
 * in for the spot market (CONTRACTS.md: `POST /admin/v1/index-prices`). Both answers are functions
 * of what the fold consumed, never of the wall clock.
 */
export interface IndexPriceSource {
  indexPrice(index: string): PriceDecimal | undefined;
}

/** The configured spot symbol's mid, or its last trade while a side of its book is empty. */
export class SpotMidIndex implements IndexPriceSource {
  constructor(private readonly spot: ReadonlyMap<string, SpotQuote>) {}

  indexPrice(index: string): PriceDecimal | undefined {
    const quote = this.spot.get(index);
    if (quote?.bid && quote.ask) return quote.bid.plus(quote.ask).div(2);
    return quote?.last;
  }
}

/** The last price the operator fed for the index. */
export class ExternalIndex implements IndexPriceSource {
  constructor(private readonly fed: ReadonlyMap<string, PriceDecimal>) {}

  indexPrice(index: string): PriceDecimal | undefined {
    return this.fed.get(index);
  }
}
