import fc from 'fast-check';
import { hostileName, hostileValue, oddMethod, percentEncode } from './hostile-values';
import { type HttpInput, type SignatureMode, valueOf } from './http-input';
import type { Endpoint } from './openapi-endpoints';

/** One change to a plausible request; it edits the input in place and notes what it did. */
export type Mutation = (input: HttpInput) => void;

/** The verdict of a hostile credential, which a raw path to a public route makes moot. */
export const CREDENTIAL_NOT_VALID = 'credential not valid';

const reject = (input: HttpInput, why: string): void => {
  input.mustReject ??= why;
};
const pick = <T>(items: T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];
const own = (input: HttpInput) => input.query.filter((p) => p.name !== 'timestamp' && p.name !== 'recvWindow');

/** Free-text parameters (documented strings without an enum: ids, names, addresses) count thrice: that is where NUL got through. */
const weightedOwn = (input: HttpInput) =>
  own(input).flatMap((pair) => {
    const doc = input.endpoint.params.find((p) => p.name === pair.name);
    return doc && doc.type === 'string' && !doc.enum ? [pair, pair, pair] : [pair];
  });

const replaceValue: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), hostileValue).map(([i, h]) => (input) => {
  const pair = pick(weightedOwn(input), i);
  if (!pair) return;
  pair.value = h.value;
  input.notes.push(`${pair.name}: ${h.label}`);
});

const dropRequired: fc.Arbitrary<Mutation> = fc.nat().map((i) => (input) => {
  const required = input.endpoint.params.filter(
    (p) => p.required && p.in === 'query' && p.name !== 'signature' && p.name !== 'timestamp',
  );
  const victim = pick(required, i);
  if (!victim) return;
  input.query = input.query.filter(
    (p) =>
      p.name !== victim.name &&
      (p.name === 'timestamp' || input.endpoint.params.some((d) => d.name === p.name && d.required)),
  );
  input.notes.push(`without ${victim.name}`);
});

const repeatParam: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.boolean()).map(([i, sameValue]) => (input) => {
  const pair = pick(input.query, i);
  if (!pair) return;
  input.query.push({ ...pair, value: sameValue ? pair.value : '1' });
  input.notes.push(`${pair.name} repeated`);
});

const extraParam: fc.Arbitrary<Mutation> = fc.tuple(hostileName, hostileValue).map(([name, h]) => (input) => {
  input.query.push({ name, value: h.value });
  input.notes.push(`extra ${JSON.stringify(name)}: ${h.label}`);
});

/** Malformed query text written as is: bad percent-encodings, empty names, stray separators, sheer size. */
const rawQueryFragment: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%C0%80',
      '&&&',
      '=',
      '==',
      'a==b',
      '=x',
      '+',
      '%2B%2B',
      'a=%00',
      'a%00=1',
      'timestamp',
      'signature',
      '%73ignature=1',
    ),
    fc.integer({ min: 200, max: 2000 }).map((n) => Array.from({ length: n }, (_, k) => `p${k}=${k}`).join('&')),
    fc.integer({ min: 9_000, max: 120_000 }).map((n) => `q=${'x'.repeat(n)}`),
  )
  .map((text) => (input) => {
    const eq = text.indexOf('=');
    input.query.push({ name: eq < 0 ? text : text.slice(0, eq), value: eq < 0 ? '' : text.slice(eq + 1), raw: true });
    input.notes.push(`raw query ${JSON.stringify(text.length > 40 ? `${text.slice(0, 30)}…(${text.length})` : text)}`);
  });

/** Parameters moved to the body at pair boundaries (legitimate), as a form or a JSON object. */
const moveToBody: fc.Arbitrary<Mutation> = fc
  .tuple(fc.nat(), fc.constantFrom('form', 'json-strings', 'json-numbers', 'json-duplicate'))
  .map(([k, how]) => (input) => {
    // A GET's body is never read: moving its parameters there only makes them missing.
    if (input.body.kind !== 'none' || input.method === 'GET') return;
    const count = input.query.length === 0 ? 0 : (k % input.query.length) + 1;
    const moved = input.query.slice(input.query.length - count);
    input.query = input.query.slice(0, input.query.length - count);
    input.body =
      how === 'form'
        ? { kind: 'form', pairs: moved }
        : { kind: 'json', pairs: moved, style: how.slice(5) as 'strings' | 'numbers' | 'duplicate' };
    input.notes.push(`${count} params to a ${how} body`);
  });

/** The signed text cut anywhere between query and body; whether the cut is mid-pair (finding 6) is judged when it is rendered. */
const splitAnywhere: fc.Arbitrary<Mutation> = fc.nat().map((at) => (input) => {
  if (input.body.kind !== 'none') return;
  // Recent ids are not known yet: a stand-in of typical length places the cut as the real one would.
  const text = input.query
    .map(
      (p) =>
        `${percentEncode(p.name)}=${percentEncode(valueOf(p.value, { now: Date.now(), recent: { orderId: ['1'.repeat(18)], clientOrderId: ['c'.repeat(10)] } }))}`,
    )
    .join('&');
  if (text.length < 2) return;
  const cut = (at % (text.length - 1)) + 1;
  input.body = { kind: 'split', at: cut };
  input.notes.push(`query/body split at ${cut}`);
});

const malformedBody: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constantFrom<[string, string]>(
      ['{', 'application/json'],
      ['{"a":', 'application/json'],
      ['[1,2]', 'application/json'],
      ['null', 'application/json'],
      ['"x"', 'application/json'],
      ['{"symbol":{"a":1}}', 'application/json'],
      ['{"symbol":["BTCUSDT"]}', 'application/json'],
      ['{"__proto__":{"x":1}}', 'application/json'],
      ['\ufeff{}', 'application/json'],
      ['a=1', 'text/plain'],
      ['<x/>', 'application/xml'],
      ['--b\r\n\r\n', 'multipart/form-data; boundary=b'],
      ['a=1', 'application/json'],
      ['{}', 'application/x-www-form-urlencoded'],
      ['a=1', ''],
      ['a=1', 'application/x-www-form-urlencoded; charset=utf-16'],
      ['{}', 'application/json; charset=latin1'],
      ['a=1', '*/*'],
    ),
    fc.integer({ min: 1_000, max: 60_000 }).map((n): [string, string] => ['['.repeat(n), 'application/json']),
    fc
      .integer({ min: 70_000, max: 200_000 })
      .map((n): [string, string] => [`a=${'x'.repeat(n)}`, 'application/x-www-form-urlencoded']),
    fc.json().map((text): [string, string] => [text, 'application/json']),
  )
  .map(([text, contentType]) => (input) => {
    if (input.body.kind !== 'none') return;
    input.body = { kind: 'raw', text, contentType };
    input.notes.push(
      `body ${JSON.stringify(text.length > 40 ? `${text.slice(0, 20)}…(${text.length})` : text)} as ${JSON.stringify(contentType)}`,
    );
  });

const wrongContentType: fc.Arbitrary<Mutation> = fc
  .constantFrom(
    'text/plain',
    'application/xml',
    'application/octet-stream',
    'application/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'x',
    '',
  )
  .map((type) => (input) => {
    input.contentType = type;
    input.notes.push(`content-type ${JSON.stringify(type)}`);
  });

const method: fc.Arbitrary<Mutation> = oddMethod.map((m) => (input) => {
  input.method = m;
  input.notes.push(`method ${m}`);
});

const pathChange: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constantFrom('/', '//', '/x', '.json', '%2F', ';a=b', '/..', '/%2e%2e', '%00', '%20', '#frag', '/%ff'),
    fc.integer({ min: 2_000, max: 100_000 }).map((n) => `/${'a'.repeat(n)}`),
  )
  .map((suffix) => (input) => {
    input.pathSuffix = suffix;
    input.notes.push(`path + ${JSON.stringify(suffix.length > 20 ? `/a…(${suffix.length})` : suffix)}`);
  });

/** Request targets Node's parser itself refuses, or that only a raw client sends. */
const rawPath: fc.Arbitrary<Mutation> = fc
  .constantFrom(
    '/openapi/v1/\u0000',
    '/open api/v1',
    '/openapi/v1/time\u0001',
    '/openapi/v1/\u00e9',
    '*',
    'http://x/openapi/v1/time',
    '//openapi/v1/time',
    '/OPENAPI/V1/TIME',
    '/openapi/v1/time/../time',
    '',
  )
  .map((path) => (input) => {
    input.pathOverride = path;
    input.notes.push(`raw path ${JSON.stringify(path)}`);
  });

const pathParam: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), hostileValue).map(([i, h]) => (input) => {
  const name = pick(Object.keys(input.pathParams), i);
  if (name === undefined) return;
  input.pathParams[name] = percentEncode(h.value);
  input.notes.push(`path {${name}}: ${h.label}`);
  if (h.control) reject(input, `control character in path parameter '${name}'`);
});

const header: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constantFrom<[string, string]>(
      ['X-Request-Id', '\u00ff\u00fe'],
      ['X-Request-Id', 'a'.repeat(500)],
      ['X-Forwarded-For', 'not-an-ip, ::zz'],
      ['Expect', '100-continue'],
      ['Content-Encoding', 'gzip'],
      ['Accept', 'text/html'],
      ['Cookie', '=;;=='],
      ['Upgrade', 'h2c'],
      ['Upgrade', 'websocket'],
      ['Connection', 'keep-alive, Upgrade'],
      ['Transfer-Encoding', 'identity'],
      ['X-SERVICE-KEY', 'second'],
    ),
    fc.integer({ min: 9_000, max: 40_000 }).map((n): [string, string] => ['X-Padding', 'p'.repeat(n)]),
  )
  .map(([name, value]) => (input) => {
    input.headers.push([name, value]);
    if (name === 'X-SERVICE-KEY' && input.endpoint.cls === 'signed') reject(input, 'X-SERVICE-KEY sent twice');
    input.notes.push(
      `header ${name}: ${JSON.stringify(value.length > 20 ? `${value.slice(0, 8)}…(${value.length})` : value)}`,
    );
  });

const manyHeaders: fc.Arbitrary<Mutation> = fc.integer({ min: 50, max: 300 }).map((n) => (input) => {
  for (let k = 0; k < n; k++) input.headers.push([`X-H${k}`, String(k)]);
  input.notes.push(`${n} extra headers`);
});

const httpVersion: fc.Arbitrary<Mutation> = fc
  .constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 x', 'http/1.1')
  .map((v) => (input) => {
    input.httpVersion = v;
    input.notes.push(`version ${v}`);
  });

const chunked: fc.Arbitrary<Mutation> = fc.constant((input: HttpInput) => {
  input.chunked = true;
  input.notes.push('chunked body');
});

const signature: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.constantFrom<SignatureMode>('upper', 'in-body', 'missing', 'wrong-secret', 'garbage', 'twice', 'stale'),
    hostileValue,
  )
  .map(([mode, h]) => (input) => {
    input.signature = mode;
    if (mode === 'garbage') input.garbageSignature = h.value;
    input.notes.push(`signature ${mode}${mode === 'garbage' ? ` (${h.label})` : ''}`);
  });

const credential: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constant<HttpInput['credential']>({ kind: 'missing' }),
    hostileValue.map((h): HttpInput['credential'] => ({ kind: 'text', text: h.value.replace(/[\r\n]/g, '') })),
    fc
      .constantFrom('A'.repeat(64), 'a'.repeat(63), '0'.repeat(65))
      .map((text): HttpInput['credential'] => ({ kind: 'text', text })),
  )
  .map((c) => (input) => {
    input.credential = c;
    input.notes.push(`credential ${c.kind === 'text' ? JSON.stringify(c.text.slice(0, 20)) : c.kind}`);
    reject(input, CREDENTIAL_NOT_VALID);
  });

const timestamp: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.integer({ min: 3_000, max: 1_000_000_000 }).map((d): string | { now: number } => ({ now: d })),
    fc.integer({ min: 7_000, max: 10_000_000_000 }).map((d): string | { now: number } => ({ now: -d })),
    hostileValue.map((h): string | { now: number } => h.value),
  )
  .map((value) => (input) => {
    const ts = input.query.find((p) => p.name === 'timestamp');
    if (!ts) return;
    ts.value = value;
    input.query = input.query.filter((p) => p.name !== 'recvWindow');
    input.notes.push(
      `timestamp ${typeof value === 'string' ? JSON.stringify(value.slice(0, 20)) : `now${value.now > 0 ? '+' : ''}${value.now}`}`,
    );
    reject(input, 'timestamp outside recvWindow or malformed');
  });

const recvWindow: fc.Arbitrary<Mutation> = fc
  .oneof(
    fc.constantFrom('0', '-1', '60001', '99999999999999999999', '1e4', '5000.5', ''),
    hostileValue.map((h) => h.value),
  )
  .map((value) => (input) => {
    if (!input.query.some((p) => p.name === 'timestamp')) return;
    input.query = input.query.filter((p) => p.name !== 'recvWindow');
    input.query.push({ name: 'recvWindow', value });
    input.notes.push(`recvWindow ${JSON.stringify(value.slice(0, 20))}`);
    if (value !== '') reject(input, 'recvWindow invalid');
  });

const replay: fc.Arbitrary<Mutation> = fc.boolean().map((atOnce) => (input: HttpInput) => {
  input.replay = atOnce ? 'concurrent' : 'after';
  input.notes.push(atOnce ? 'sent twice at once' : 'sent twice');
});

/** A JSON body of names any endpoint documents, with plain or hostile values (operator bodies are undocumented). */
const namedJsonBody = (names: string[]): fc.Arbitrary<Mutation> =>
  fc
    .tuple(
      fc.uniqueArray(
        fc.tuple(
          fc.constantFrom(...names),
          fc.oneof(
            hostileValue.map((h) => h.value),
            fc.constantFrom('1', '0.5', 'BTCUSDT', 'USDT', 'TRADING', 'HALT', 'read'),
          ),
        ),
        { maxLength: 6, selector: ([n]) => n },
      ),
      fc.constantFrom('strings', 'numbers', 'duplicate'),
    )
    .map(([entries, style]) => (input) => {
      if (input.body.kind !== 'none') return;
      input.body = {
        kind: 'json',
        pairs: entries.map(([name, value]) => ({ name, value })),
        style: style as 'strings' | 'numbers' | 'duplicate',
      };
      input.notes.push(`JSON body (${style}) of ${entries.map(([n]) => n).join(',')}`);
    });

/** The mutations that apply to an endpoint's class, weighted towards the parameters themselves. */
export function httpMutation(endpoint: Endpoint, names: string[]): fc.Arbitrary<Mutation> {
  const common = [
    { weight: endpoint.cls === 'operator' ? 6 : 1, arbitrary: namedJsonBody(names) },
    { weight: 12, arbitrary: replaceValue },
    { weight: 2, arbitrary: dropRequired },
    { weight: 2, arbitrary: repeatParam },
    { weight: 2, arbitrary: extraParam },
    { weight: 2, arbitrary: rawQueryFragment },
    { weight: 2, arbitrary: moveToBody },
    { weight: 2, arbitrary: malformedBody },
    { weight: 1, arbitrary: wrongContentType },
    { weight: 2, arbitrary: method },
    { weight: 1, arbitrary: pathChange },
    { weight: 1, arbitrary: rawPath },
    { weight: 2, arbitrary: pathParam },
    { weight: 1, arbitrary: header },
    { weight: 1, arbitrary: manyHeaders },
    { weight: 1, arbitrary: httpVersion },
    { weight: 1, arbitrary: chunked },
  ];
  const signed = [
    { weight: 3, arbitrary: signature },
    { weight: 2, arbitrary: credential },
    { weight: 2, arbitrary: timestamp },
    { weight: 1, arbitrary: recvWindow },
    { weight: 2, arbitrary: splitAnywhere },
    { weight: endpoint.method === 'GET' ? 0 : 2, arbitrary: replay },
  ];
  if (endpoint.cls === 'signed') return fc.oneof(...common, ...signed);
  if (endpoint.cls === 'operator') return fc.oneof(...common, { weight: 2, arbitrary: credential });
  return fc.oneof(...common, { weight: 1, arbitrary: splitAnywhere });
}
