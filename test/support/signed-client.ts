import { createHmac } from 'node:crypto';
import { http, type HttpAnswer } from './http-client';

export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export interface SignedCall {
  query?: Record<string, string | number>;
  body?: Record<string, string | number>;
  timestamp?: number;
  recvWindow?: number;
  /** Signs with this secret instead (for negative tests). */
  secretOverride?: string;
  headers?: Record<string, string>;
}

const encode = (params: Record<string, string | number>): string =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

let lastTimestamp = 0;
const sent = new Set<string>();

/** Now, but never the same millisecond twice in this process. */
export function freshTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/**
 * The exchange accepts the signature of a state-changing request once (replay guard), so this
 * client never signs the same bytes twice: a repeat of a call (tests on a frozen clock send the
 * same parameters and timestamp again) goes out a millisecond earlier, as a real client's second
 * call a millisecond apart would differ. A timestamp the caller chose is kept on its first use.
 */
function unsentTimestamp(call: SignedCall, textAt: (timestamp: number) => string): number {
  let timestamp = call.timestamp ?? freshTimestamp();
  while (sent.has(textAt(timestamp))) timestamp -= 1;
  sent.add(textAt(timestamp));
  return timestamp;
}

/**
 * Signs the way the family's clients do: HMAC-SHA256 of the query string followed by the form
 * body, hex, sent as the last query parameter; the key in X-SERVICE-KEY.
 */
export async function signedRequest<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  creds: Credentials,
  call: SignedCall = {},
): Promise<HttpAnswer<T>> {
  const bodyText = call.body ? encode(call.body) : '';
  const queryAt = (timestamp: number): string =>
    encode({ ...(call.query ?? {}), timestamp, ...(call.recvWindow ? { recvWindow: call.recvWindow } : {}) });
  // The signature covers the parameters, not the method or path: the same ones to another endpoint are the same signature.
  const queryText = queryAt(unsentTimestamp(call, (timestamp) => `${creds.apiKey} ${queryAt(timestamp)} ${bodyText}`));
  // With a body, the query ends with the '&' that joins it to the body: a split the exchange accepts only at a pair boundary.
  const signedQuery = bodyText ? `${queryText}&` : queryText;
  const signature = createHmac('sha256', call.secretOverride ?? creds.secretKey)
    .update(signedQuery + bodyText)
    .digest('hex');
  const headers: Record<string, string> = { 'X-SERVICE-KEY': creds.apiKey, ...(call.headers ?? {}) };
  if (bodyText) headers['content-type'] = 'application/x-www-form-urlencoded';
  return http<T>(baseUrl, method, `${path}?${signedQuery}&signature=${signature}`, {
    body: bodyText || undefined,
    headers,
  });
}

export function adminCall<T = unknown>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return http<T>(baseUrl, method, path, { body: body === undefined ? undefined : JSON.stringify(body), headers });
}
