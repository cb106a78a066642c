import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { assertPlainText } from './plain-text';

/**
 * The parameters of one request, from the raw query string and the raw body. A name repeated
 * inside one source is -1101; a name in both sources takes the query's value (API-DECISIONS.md).
 * Parsing from the raw text, not Fastify's parsed objects, is what lets repeats be seen at all.
 * Control characters and over-long values are refused here, in any parameter (plain-text.ts).
 */
export class RequestParams {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  static fromRaw(rawQuery: string, rawBody: string | undefined, contentType: string | undefined): RequestParams {
    const merged = new Map<string, string>();
    const body = rawBody ? parseBody(rawBody, contentType) : new Map<string, string>();
    for (const [k, v] of body) merged.set(k, v);
    for (const [k, v] of parseUrlEncoded(rawQuery, 'query string')) merged.set(k, v);
    // Every parameter, known or not: one rule at the edge for everything that may reach SQL or a command.
    for (const [k, v] of merged) {
      assertPlainText(k, k);
      assertPlainText(k, v);
    }
    return new RequestParams(merged);
  }

  static fromUrl(url: string): RequestParams {
    const q = url.indexOf('?');
    return RequestParams.fromRaw(q < 0 ? '' : url.slice(q + 1), undefined, undefined);
  }

  has(name: string): boolean {
    const v = this.values.get(name);
    return v !== undefined && v !== '';
  }

  /** The raw string, or undefined when absent or empty (the family treats both alike). */
  optional(name: string): string | undefined {
    const v = this.values.get(name);
    return v === undefined || v === '' ? undefined : v;
  }

  required(name: string): string {
    const v = this.optional(name);
    if (v === undefined) throw ApiError.missing(name);
    return v;
  }

  /** A plain integer in [min, max]; no sign unless min < 0, no exponent, no decimals. */
  optionalInt(name: string, min: number, max: number): number | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    if (!/^-?\d{1,16}$/.test(raw)) throw ApiError.invalid(name, 'expected a plain integer');
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw ApiError.invalid(name, `expected an integer from ${min} to ${max}`);
    return n;
  }

  optionalEnum<T extends string>(
    name: string,
    allowed: readonly T[],
    code: number = ErrorCode.INVALID_PARAM_VALUE,
  ): T | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw new ApiError(
        code as never,
        `Invalid value for parameter '${name}': expected one of ${allowed.join(', ')}.`,
      );
    }
    return raw as T;
  }
}

function parseBody(rawBody: string, contentType: string | undefined): Map<string, string> {
  if (contentType?.includes('application/json')) return parseJsonBody(rawBody);
  return parseUrlEncoded(rawBody, 'body');
}

function parseJsonBody(rawBody: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'The JSON body could not be parsed.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'The JSON body must be an object of parameters.');
  }
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(parsed)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'object') throw ApiError.invalid(k, 'expected a string or a number');
    out.set(k, String(v));
  }
  return out;
}

function parseUrlEncoded(raw: string, where: string): Map<string, string> {
  const out = new Map<string, string>();
  if (raw === '') return out;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    if (out.has(name)) {
      throw new ApiError(ErrorCode.DUPLICATE_PARAM, `Duplicate parameter '${name}' in the ${where}.`);
    }
    out.set(name, value);
  }
  return out;
}

function decodeComponent(text: string): string {
  // Most names and values hold neither: the same text back, without a regular expression and a
  // decode per component (about 3 us per signed order request on the shared machine, issue 16).
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new ApiError(ErrorCode.ILLEGAL_CHARS, 'Illegal percent-encoding in the request parameters.');
  }
}
