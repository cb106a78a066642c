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
    throw new ApiError(
      ErrorCode.ILLEGAL_CHARS,
      `Illegal characters found in parameter '${name}'; a plain decimal number is expected.`,
    );
  }
  const value = new Decimal(text);
  if (value.lte(0)) throw ApiError.invalid(name, 'must be greater than zero');
  if (value.decimalPlaces() > maxDecimals) throw ApiError.invalid(name, `at most ${maxDecimals} decimals are allowed`);
  return value;
}

/**
 * A decimal string with exactly `decimals` places (extra places cut, never rounded up), as
 * balances and flows are shown. Plain decimal strings, the common case on hot read paths, are
 * padded as text; anything else goes through decimal.js.
 */
export function formatDecimal(value: Decimal.Value, decimals: number): string {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
    const point = value.indexOf('.');
    const whole = point < 0 ? value : value.slice(0, point);
    const fraction = point < 0 ? '' : value.slice(point + 1);
    const places =
      fraction.length >= decimals ? fraction.slice(0, decimals) : fraction + '0'.repeat(decimals - fraction.length);
    const text = decimals === 0 ? whole : `${whole}.${places}`;
    return text.startsWith('-') && /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }
  return new Decimal(value).toFixed(decimals, Decimal.ROUND_DOWN);
}
