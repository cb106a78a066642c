import Decimal from 'decimal.js';

/**
 * The ledger's decimal: decimal.js with enough significant digits that no sum or product of
 * amounts the markets allow is ever rounded (the default 20 digits is reachable by a balance of
 * 10^12 with 8 decimals). Rounding is only ever explicit, to an asset's precision.
 */
export const Money = Decimal.clone({ precision: 60 });
export type Money = Decimal;

export const ZERO: Money = new Money(0);
