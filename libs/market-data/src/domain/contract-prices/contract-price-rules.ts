import { PriceDecimal } from './index-price-source';

/** How one contract is priced: from the markets configuration plus the choice of index source. */
export interface ContractPriceConfig {
  symbol: string;
  /** The spot symbol (or external index name) the index price is of. */
  index: string;
  indexSource: 'spot' | 'external';
  /** The mark price is rounded to the contract's tick. */
  tickSize: string;
  fundingIntervalMs: number;
  /** How many one-second basis samples the moving average takes (the last ones). */
  basisWindow: number;
}

const BASIS_BOUND = new PriceDecimal('0.005');
const INTEREST = new PriceDecimal('0.0001');
const PREMIUM_BOUND = new PriceDecimal('0.0005');
const RATE_BOUND = new PriceDecimal('0.0075');
/** Premium samples keep 12 decimals and rates 8: fixed, so every replica rounds alike. */
const PREMIUM_DECIMALS = 12;
const RATE_DECIMALS = 8;

function clamp(value: PriceDecimal, low: PriceDecimal, high: PriceDecimal): PriceDecimal {
  return PriceDecimal.min(high, PriceDecimal.max(low, value));
}

/** Mark = index + the average basis, clamped to ±0.5% of the index, to the tick (half up). */
export function markPriceOf(index: PriceDecimal, averageBasis: PriceDecimal, tickSize: string): PriceDecimal {
  const bound = index.times(BASIS_BOUND);
  return index.plus(clamp(averageBasis, bound.negated(), bound)).toNearest(tickSize, PriceDecimal.ROUND_HALF_UP);
}

/** One second's premium, (mark − index) / index. */
export function premiumOf(mark: PriceDecimal, index: PriceDecimal): PriceDecimal {
  return mark.minus(index).div(index).toDecimalPlaces(PREMIUM_DECIMALS, PriceDecimal.ROUND_HALF_EVEN);
}

/** CONTRACTS.md: rate = clamp(P + clamp(0.01% − P, −0.05%, +0.05%), −0.75%, +0.75%), P the interval's average premium. */
export function fundingRateOf(averagePremium: PriceDecimal): PriceDecimal {
  const p = averagePremium;
  const rate = clamp(
    p.plus(clamp(INTEREST.minus(p), PREMIUM_BOUND.negated(), PREMIUM_BOUND)),
    RATE_BOUND.negated(),
    RATE_BOUND,
  );
  return rate.toDecimalPlaces(RATE_DECIMALS, PriceDecimal.ROUND_HALF_EVEN);
}
