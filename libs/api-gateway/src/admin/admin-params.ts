import { ApiError, assertPlainText, hasForbiddenCharacters } from '@exchange/platform';

/** Ids are positive integers below 2^53 (ARCHITECTURE rule 7): anything else never reaches SQL. */
const ID = /^[1-9]\d{0,15}$/;
const API_KEY = /^[A-Za-z0-9]{64}$/;
/** A spot symbol, or a contract's name with its dashes (BTC-SWAP-USDT). */
const SYMBOL = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

export function isId(value: string): boolean {
  return ID.test(value) && Number.isSafeInteger(Number(value));
}

/**
 * A user, account, withdrawal or address-book id from an operator path or query: -1102 when
 * absent, -1100 with control characters, -1130 when it is not a positive integer below 2^53.
 */
export function idParam(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw ApiError.missing(name);
  assertPlainText(name, value, 64);
  if (!isId(value)) throw ApiError.invalid(name, 'expected a positive integer id below 2^53');
  return value;
}

export function apiKeyParam(value: string): string {
  assertPlainText('apiKey', value, 128);
  if (!API_KEY.test(value)) throw ApiError.invalid('apiKey', 'expected 64 letters and digits');
  return value;
}

/** A symbol's shape only; whether it is listed is the markets' answer (-1121). */
export function symbolParam(value: string): string {
  assertPlainText('symbol', value, 64);
  if (value.length > 32 || !SYMBOL.test(value))
    throw ApiError.invalid('symbol', 'expected letters and digits, up to 32, in parts joined by dashes');
  return value;
}

/**
 * Every string anywhere in an operator body, names included, holds no control character and is
 * bounded (plain-text.ts): the schemas then check shapes, and no text a consumer cannot store
 * becomes a command.
 */
export function assertPlainStrings(value: unknown, path = ''): void {
  if (typeof value === 'string') return assertPlainText(path || 'body', value);
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    const name = path ? `${path}.${key}` : key;
    if (hasForbiddenCharacters(key)) assertPlainText(name, key);
    assertPlainStrings(inner, name);
  }
}

/** An integer in [min, max] from an operator path or query (a log position, a count); undefined when absent. */
export function intParam(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  assertPlainText(name, value, 64);
  const n = Number(value);
  if (!/^\d{1,16}$/.test(value) || n < min || n > max)
    throw ApiError.invalid(name, `expected an integer from ${min} to ${max}`);
  return n;
}
