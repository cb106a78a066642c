import Decimal from 'decimal.js';

/**
 * decimal.js rounds every result to 20 significant digits by default; a price times a quantity
 * can need more, so the engine's boundary works at a precision no amount on our wire reaches
 * (amounts are at most 40 characters) and every product and sum below is exact.
 */
const Exact = Decimal.clone({ precision: 120, rounding: Decimal.ROUND_DOWN });
type Exact = InstanceType<typeof Exact>;

/** A plain decimal string in its shortest form ("100.50" → "100.5"), as every amount we write. */
export function plainDecimal(value: string): string {
  return new Exact(value).toFixed();
}

export function addDecimals(a: string, b: string): string {
  return new Exact(a).add(b).toFixed();
}

/** A MARKET BUY's budget in notional units, and the quote below one unit that it cannot spend. */
export interface NotionalBudget {
  units: number;
  dust: string;
}

/**
 * One symbol's exact conversion between decimal strings and the engine's integers: price in
 * ticks (price / tickSize), quantity in lots (quantity / stepSize) and quote in notional units
 * (tickSize × stepSize, so q lots at p ticks cost p × q units). Prices and quantities must be
 * exact multiples; a quote amount is rounded down, because an order may spend less than its
 * budget but never more. Anything that does not fit a safe integer is refused, not rounded.
 */
export class SymbolUnits {
  private readonly tick: Exact;
  private readonly step: Exact;
  private readonly notional: Exact;

  constructor(tickSize: string, stepSize: string) {
    this.tick = new Exact(tickSize);
    this.step = new Exact(stepSize);
    this.notional = this.tick.mul(this.step);
    if (this.tick.lte(0) || this.step.lte(0)) {
      throw new Error(`symbol units: tickSize ${tickSize} and stepSize ${stepSize} must be positive`);
    }
  }

  /** Ticks, or undefined when the price is not a multiple of tickSize or too large. */
  priceToTicks(price: string): number | undefined {
    return exactMultiple(new Exact(price), this.tick);
  }

  /** Lots, or undefined when the quantity is not a multiple of stepSize or too large. */
  qtyToLots(quantity: string): number | undefined {
    return exactMultiple(new Exact(quantity), this.step);
  }

  /** The whole notional units a quote amount buys (rounded down) and the remainder, or undefined if too large. */
  quoteToNotional(quote: string): NotionalBudget | undefined {
    const amount = new Exact(quote);
    let units = amount.div(this.notional).floor();
    // Division is rounded at the working precision; step back if that rounding crossed an integer.
    if (units.mul(this.notional).gt(amount)) units = units.sub(1);
    const count = units.toNumber();
    if (!Number.isSafeInteger(count)) return undefined;
    return { units: count, dust: amount.sub(units.mul(this.notional)).toFixed() };
  }

  ticksToPrice(ticks: number): string {
    return this.tick.mul(ticks).toFixed();
  }

  lotsToQty(lots: number): string {
    return this.step.mul(lots).toFixed();
  }

  notionalToQuote(units: number): string {
    return this.notional.mul(units).toFixed();
  }

  /** price × qty of `lots` at `ticks`, exact (the integer product itself may pass 2^53). */
  tradeQuote(ticks: number, lots: number): string {
    return this.tick.mul(ticks).mul(this.step.mul(lots)).toFixed();
  }
}

function exactMultiple(value: Exact, unit: Exact): number | undefined {
  const count = value.div(unit).floor();
  if (!count.mul(unit).eq(value)) return undefined;
  const n = count.toNumber();
  return Number.isSafeInteger(n) ? n : undefined;
}
