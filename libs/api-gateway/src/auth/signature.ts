import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedPayload {
  /** The raw query string and body with the signature pair cut out: what the client signed. */
  totalParams: string;
  /** The two parts of totalParams, as they arrived. */
  query: string;
  body: string;
  /** The signature as sent, or undefined when none was sent. */
  signature: string | undefined;
}

const SIGNATURE_PAIR = /(^|&)signature=([^&]*)/;

/**
 * Cuts `signature=<hex>` (and the one `&` joining it) out of the raw text, byte for byte as
 * received. The string is never rebuilt from parsed parameters: ccxt signs `a=1&timestamp=…&`
 * and sends `…&&signature=…`, which verifies only against the raw bytes.
 */
export function extractSignedPayload(rawQuery: string, rawBody: string): SignedPayload {
  const inQuery = cut(rawQuery);
  if (inQuery.signature !== undefined)
    return { totalParams: inQuery.rest + rawBody, query: inQuery.rest, body: rawBody, signature: inQuery.signature };
  const inBody = cut(rawBody);
  return { totalParams: rawQuery + inBody.rest, query: rawQuery, body: inBody.rest, signature: inBody.signature };
}

/**
 * Why the signed bytes cannot stand for the parameters parsed from them, or undefined when they
 * can. The signature covers the query and the body joined, so bytes moved across the split
 * (`…&price=9000` + `0&quantity=…` for a signed `price=90000`) would verify and mean something
 * else. Hence: every non-empty pair is `name=value`, and where the query and a form body both
 * hold pairs they meet at an `&` (the query ends with one or the body starts with one), so the
 * split is a pair boundary of the signed text. ccxt's empty pair (`…&timestamp=1&`) stays valid.
 * A JSON body delimits itself: moving a byte into or out of it breaks the JSON.
 */
export function splitProblem(payload: SignedPayload, jsonBody: boolean): string | undefined {
  const parts = jsonBody ? [payload.query] : [payload.query, payload.body];
  for (const part of parts) {
    const bad = part.split('&').find((pair) => pair !== '' && !(pair.indexOf('=') > 0));
    if (bad !== undefined) return `'${bad.slice(0, 40)}' is not a name=value pair`;
  }
  if (
    !jsonBody &&
    payload.query !== '' &&
    payload.body !== '' &&
    !payload.query.endsWith('&') &&
    !payload.body.startsWith('&')
  ) {
    return "the query and the body must meet at a pair boundary: end the query with '&' (and sign that '&')";
  }
  return undefined;
}

function cut(text: string): { rest: string; signature: string | undefined } {
  const match = SIGNATURE_PAIR.exec(text);
  if (!match) return { rest: text, signature: undefined };
  const start = match.index;
  const end = start + match[0].length;
  // A leading pair takes the `&` after it; any other takes the `&` before it (inside the match).
  if (match[1] === '' && text[end] === '&') return { rest: text.slice(end + 1), signature: match[2] };
  return { rest: text.slice(0, start) + text.slice(end), signature: match[2] };
}

export function sign(secretKey: string, totalParams: string): string {
  return createHmac('sha256', secretKey).update(totalParams, 'utf8').digest('hex');
}

/** Constant-time comparison of hex signatures, case-insensitive as the family allows. */
export function signatureMatches(secretKey: string, totalParams: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(sign(secretKey, totalParams), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'));
}
