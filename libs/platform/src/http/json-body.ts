import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/** A string token of JSON text, and whether a colon follows it (then it is an object's key). */
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/**
 * Refuses a JSON body that repeats a key inside one object (-1101), as a repeated query or form
 * parameter is refused: JSON.parse silently keeps the last one. `parsed` is what a JSON parser
 * made of `text`; since `text` is valid JSON, every string token in it is found by the pattern,
 * and the keys it names can only outnumber the parsed objects' keys when one object repeated one.
 */
export function assertNoDuplicateKeys(text: string, parsed: unknown): void {
  let keysInText = 0;
  for (const match of text.matchAll(STRING_TOKEN)) if (match[1] !== undefined) keysInText++;
  if (keysInText !== countKeys(parsed))
    throw new ApiError(ErrorCode.DUPLICATE_PARAM, 'Duplicate key in the JSON body.');
}

function countKeys(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countKeys(item), 0);
  let n = 0;
  for (const key of Object.keys(value)) n += 1 + countKeys((value as Record<string, unknown>)[key]);
  return n;
}
