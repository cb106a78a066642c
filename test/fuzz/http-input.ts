import { createHmac } from 'node:crypto';
import { percentEncode } from './hostile-values';
import { type Endpoint, fillPath } from './openapi-endpoints';

/** Ids the exchange gave out during the run (orders the fuzz placed), for calls that name an existing thing. */
export interface RecentIds {
  orderId: string[];
  clientOrderId: string[];
}

/**
 * A parameter value; `{ now }` is the send time plus an offset and `{ recent }` one of the ids
 * given out so far (chosen by `pick`), both filled in when the request is rendered.
 */
export type ParamValue = string | { now: number } | { recent: keyof RecentIds; pick: number };

export interface Pair {
  name: string;
  value: ParamValue;
  /** Written into the request as is, not percent-encoded (malformed encodings, raw separators). */
  raw?: boolean;
}

export type Body =
  | { kind: 'none' }
  | { kind: 'form'; pairs: Pair[] }
  /** A JSON object of the pairs; `numbers` leaves numeric text unquoted, `duplicate` repeats the first key. */
  | { kind: 'json'; pairs: Pair[]; style: 'strings' | 'numbers' | 'duplicate' }
  | { kind: 'raw'; text: string; contentType: string }
  /** The canonical `a=1&b=2…` text of all parameters cut at `at`: the query gets the head, the body the tail. */
  | { kind: 'split'; at: number };

export type SignatureMode = 'valid' | 'upper' | 'in-body' | 'missing' | 'wrong-secret' | 'garbage' | 'twice' | 'stale';

export interface HttpInput {
  endpoint: Endpoint;
  method: string;
  pathParams: Record<string, string>;
  /** Appended to the path, or replacing it when `pathOverride` is set (raw bytes included). */
  pathSuffix: string;
  pathOverride?: string;
  query: Pair[];
  body: Body;
  contentType?: string;
  headers: [string, string][];
  /** X-SERVICE-KEY (signed) or the bearer token (operator): the real one, none, or this text. */
  credential: { kind: 'valid' } | { kind: 'missing' } | { kind: 'text'; text: string };
  signature: SignatureMode;
  garbageSignature?: string;
  chunked: boolean;
  httpVersion: string;
  /** What was done to the plausible request, in order. */
  notes: string[];
  /** Why no answer but a refusal is right, when the input is invalid for certain. */
  mustReject?: string;
  /** The same bytes sent again, after the answer or at the same time: a state-changing call may execute once. */
  replay: 'no' | 'after' | 'concurrent';
}

export interface RenderContext {
  now: number;
  recent: RecentIds;
  apiKey: string;
  secretKey: string;
  adminToken: string;
}

const encode = percentEncode;
export function valueOf(value: ParamValue, ctx: Pick<RenderContext, 'now' | 'recent'>): string {
  if (typeof value === 'string') return value;
  if ('now' in value) return String(ctx.now + value.now);
  const ids = ctx.recent[value.recent];
  return ids.length === 0 ? '1' : ids[value.pick % ids.length]!;
}
const pairText = (pair: Pair, ctx: RenderContext): string =>
  pair.raw ? `${pair.name}=${valueOf(pair.value, ctx)}` : `${encode(pair.name)}=${encode(valueOf(pair.value, ctx))}`;
const joinPairs = (pairs: Pair[], ctx: RenderContext): string => pairs.map((p) => pairText(p, ctx)).join('&');

/** The request as bytes: request line, headers and body, signed the way the family's clients sign. */
export function renderRequest(input: HttpInput, ctx: RenderContext): Buffer {
  let queryText = input.body.kind === 'split' ? '' : joinPairs(input.query, ctx);
  let bodyText = '';
  let contentType = input.contentType;
  switch (input.body.kind) {
    case 'none':
      break;
    case 'form':
      bodyText = joinPairs(input.body.pairs, ctx);
      contentType ??= 'application/x-www-form-urlencoded';
      break;
    case 'json':
      bodyText = jsonText(input.body.pairs, input.body.style, ctx);
      contentType ??= 'application/json';
      break;
    case 'raw':
      bodyText = input.body.text;
      contentType ??= input.body.contentType;
      break;
    case 'split': {
      const all = joinPairs(input.query, ctx);
      const at = Math.min(input.body.at, all.length);
      queryText = all.slice(0, at);
      bodyText = all.slice(at);
      // Only the rendered text knows where the cut fell: mid-pair, a signed request must be refused (finding 6).
      // A raw path of its own may send it to a public route (`http://x/openapi/v1/time`), which signs nothing.
      if (
        input.endpoint.cls === 'signed' &&
        input.pathOverride === undefined &&
        at > 0 &&
        at < all.length &&
        all[at - 1] !== '&' &&
        all[at] !== '&'
      )
        input.mustReject ??= 'signed text split mid-pair between query and body';
      contentType ??= 'application/x-www-form-urlencoded';
      break;
    }
  }
  if (input.endpoint.cls === 'signed') ({ queryText, bodyText } = sign(input, ctx, queryText, bodyText));

  const path = input.pathOverride ?? fillPath(input.endpoint.path, input.pathParams) + input.pathSuffix;
  const target = queryText === '' ? path : `${path}?${queryText}`;
  const body = Buffer.from(bodyText, 'utf8');
  const head: string[] = [`${input.method} ${target} ${input.httpVersion}`, 'Host: 127.0.0.1', 'Connection: close'];
  const credential = credentialHeader(input, ctx);
  if (credential) head.push(credential);
  if (contentType !== undefined) head.push(`Content-Type: ${contentType}`);
  for (const [name, value] of input.headers) head.push(`${name}: ${value}`);
  if (input.chunked && body.length > 0) {
    head.push('Transfer-Encoding: chunked');
    return Buffer.concat([
      Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'),
      Buffer.from(body.length.toString(16) + '\r\n'),
      body,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
  }
  if (body.length > 0 || ['POST', 'PUT', 'DELETE', 'PATCH'].includes(input.method))
    head.push(`Content-Length: ${body.length}`);
  // latin1 keeps raw bytes of a hostile request line as they are; utf8 text was encoded above.
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), body]);
}

function credentialHeader(input: HttpInput, ctx: RenderContext): string | undefined {
  const { cls } = input.endpoint;
  if (cls !== 'signed' && cls !== 'operator') return undefined;
  const c = input.credential;
  if (c.kind === 'missing') return undefined;
  if (cls === 'signed') return `X-SERVICE-KEY: ${c.kind === 'valid' ? ctx.apiKey : c.text}`;
  return `Authorization: Bearer ${c.kind === 'valid' ? ctx.adminToken : c.text}`;
}

function sign(
  input: HttpInput,
  ctx: RenderContext,
  queryText: string,
  bodyText: string,
): { queryText: string; bodyText: string } {
  const secret = input.signature === 'wrong-secret' ? 'f'.repeat(64) : ctx.secretKey;
  const signature = createHmac('sha256', secret)
    .update(queryText + bodyText, 'utf8')
    .digest('hex');
  const append = (text: string, pair: string) => (text === '' ? pair : `${text}&${pair}`);
  switch (input.signature) {
    case 'missing':
      return { queryText, bodyText };
    case 'valid':
    case 'wrong-secret':
      return { queryText: append(queryText, `signature=${signature}`), bodyText };
    case 'upper':
      return { queryText: append(queryText, `signature=${signature.toUpperCase()}`), bodyText };
    case 'in-body':
      // Only a form body can carry it; the others keep it in the query.
      if (input.body.kind === 'form' || input.body.kind === 'split' || input.body.kind === 'none')
        return { queryText, bodyText: append(bodyText, `signature=${signature}`) };
      return { queryText: append(queryText, `signature=${signature}`), bodyText };
    case 'garbage':
      return { queryText: append(queryText, `signature=${encode(input.garbageSignature ?? '')}`), bodyText };
    case 'twice':
      return { queryText: append(append(queryText, `signature=${signature}`), `signature=${signature}`), bodyText };
    case 'stale':
      // Signed, then a parameter added: what a tampering proxy would send.
      return { queryText: append(append(queryText, 'newClientOrderId=tampered'), `signature=${signature}`), bodyText };
  }
}

function jsonText(pairs: Pair[], style: 'strings' | 'numbers' | 'duplicate', ctx: RenderContext): string {
  const entries = pairs.map((p) => {
    const value = valueOf(p.value, ctx);
    const rendered = style === 'numbers' && /^-?\d+(\.\d+)?$/.test(value) ? value : JSON.stringify(value);
    return `${JSON.stringify(p.name)}:${rendered}`;
  });
  if (style === 'duplicate' && entries.length > 0) entries.push(entries[0]!.replace(/:.*$/, ':"1"'));
  return `{${entries.join(',')}}`;
}

/** One line that says what was sent, for the failure report (long values shortened). */
export function describeInput(input: HttpInput): string {
  const short = (v: ParamValue) => {
    const text =
      typeof v === 'string' ? v : 'now' in v ? `now${v.now >= 0 ? '+' : ''}${v.now}` : `<a recent ${v.recent}>`;
    return JSON.stringify(text.length > 60 ? `${text.slice(0, 40)}…(${text.length} chars)` : text);
  };
  const pairs = (ps: Pair[]) => ps.map((p) => `${p.name}=${short(p.value)}`).join('&');
  const body =
    input.body.kind === 'form' || input.body.kind === 'json'
      ? ` body(${input.body.kind})=${pairs(input.body.pairs)}`
      : input.body.kind === 'raw'
        ? ` body(${input.body.contentType})=${short(input.body.text)}`
        : input.body.kind === 'split'
          ? ` split@${input.body.at}`
          : '';
  return `${input.method} ${input.pathOverride ? short(input.pathOverride) : fillPath(input.endpoint.path, input.pathParams) + input.pathSuffix}?${pairs(input.query)}${body} [${input.notes.join('; ')}]`;
}
