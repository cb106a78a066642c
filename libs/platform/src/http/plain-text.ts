import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * What no parameter of this API may hold: C0 controls (NUL, and tab and newline too: no parameter
 * is multi-line text, and a newline in a name or an address only ever forges log lines or
 * display), DEL, C1 controls, and lone UTF-16 surrogates (PostgreSQL refuses NUL in text, and a
 * lone surrogate would be stored silently changed). Refused at the edge, a bad string never
 * becomes a command that a consumer cannot apply.
 */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udfff]/u;

/** The longest value any parameter of the API takes (addresses, names, signatures are far shorter). */
export const MAX_PARAM_LENGTH = 1024;

export function hasForbiddenCharacters(value: string): boolean {
  return FORBIDDEN.test(value);
}

/** -1100 naming the parameter when `value` holds a control character; -1130 when longer than `maxLength`. */
export function assertPlainText(name: string, value: string, maxLength = MAX_PARAM_LENGTH): void {
  if (hasForbiddenCharacters(value))
    throw new ApiError(
      ErrorCode.ILLEGAL_CHARS,
      `Illegal characters found in parameter '${printable(name)}': control characters are not accepted.`,
    );
  if (value.length > maxLength) throw ApiError.invalid(printable(name), `at most ${maxLength} characters`);
}

/** A parameter's name as it can be quoted back in a message: its control characters escaped. */
function printable(name: string): string {
  return name.replace(new RegExp(FORBIDDEN.source, 'gu'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
