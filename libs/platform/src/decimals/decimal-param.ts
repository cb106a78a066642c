import Decimal from 'decimal.js';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
const MAX_LENGTH = 40;

/**
 * A DECIMAL parameter as API-DECISIONS.md defines it: digits with at most one point, no sign, no
 * exponent, greater than zero, and no more decimals than allowed. It is never rounded.
 */
export function parseDecimalParam(name: string, text: string, maxDecimals: number): Decimal {
  if (text.length > MAX_LENGTH || !PLAIN_DECIMAL.test(text)) {
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, `Illegal characters found in parameter '${name}'; a plain decimal number is expected.`);
  }
  const value = new Decimal(text);
  if (value.lte(0)) throw ApiError.invalid(name, 'must be greater than zero');
  if (value.decimalPlaces() > maxDecimals) throw ApiError.invalid(name, `at most ${maxDecimals} decimals are allowed`);
  return value;
}

/** A decimal string with exactly `decimals` places, as balances and flows are shown. */
export function formatDecimal(value: Decimal.Value, decimals: number): string {
  return new Decimal(value).toFixed(decimals, Decimal.ROUND_DOWN);
}
