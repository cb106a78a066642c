/**
 * Exact decimals as scaled integers: "60000.5" at 2 decimals is 6000050n. Market data sums
 * volumes and compares prices on every trade, so it works in bigint and writes decimal strings
 * only at the edge, never through a float.
 */
export function toScaled(text: string, decimals: number): bigint {
  const point = text.indexOf('.');
  const whole = point < 0 ? text : text.slice(0, point);
  const fraction = point < 0 ? '' : text.slice(point + 1).replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`scaled decimal: ${text} has more than ${decimals} decimals`);
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

/** The scaled integer as a decimal string with exactly `decimals` places. */
export function formatScaled(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** Decimals of a step such as "0.001" (3) or "1" (0). */
export function decimalsOf(step: string): number {
  const point = step.indexOf('.');
  return point < 0 ? 0 : step.slice(point + 1).replace(/0+$/, '').length;
}

/**
 * How one symbol's numbers are written: prices with the decimals of its tick size, quantities
 * with those of its step size, quote amounts (price × quantity, × the contract multiplier for a
 * contract, whose quantity counts contracts) with all of them, so they stay exact.
 */
export class SymbolScale {
  readonly quoteDecimals: number;
  private readonly multiplier: bigint;

  constructor(
    readonly priceDecimals: number,
    readonly qtyDecimals: number,
    contractMultiplier = '1',
  ) {
    const multiplierDecimals = decimalsOf(contractMultiplier);
    this.multiplier = toScaled(contractMultiplier, multiplierDecimals);
    this.quoteDecimals = priceDecimals + qtyDecimals + multiplierDecimals;
  }

  static of(symbol: { tickSize: string; stepSize: string; contractMultiplier?: string }): SymbolScale {
    return new SymbolScale(decimalsOf(symbol.tickSize), decimalsOf(symbol.stepSize), symbol.contractMultiplier);
  }

  /** The quote amount of `qty` at `price`, scaled by quoteDecimals. */
  quote(price: bigint, qty: bigint): bigint {
    return price * qty * this.multiplier;
  }

  price(text: string): bigint {
    return toScaled(text, this.priceDecimals);
  }

  qty(text: string): bigint {
    return toScaled(text, this.qtyDecimals);
  }

  formatPrice(value: bigint): string {
    return formatScaled(value, this.priceDecimals);
  }

  formatQty(value: bigint): string {
    return formatScaled(value, this.qtyDecimals);
  }

  formatQuote(value: bigint): string {
    return formatScaled(value, this.quoteDecimals);
  }
}
