import fc from 'fast-check';
import { CONTROL, percentEncode } from './hostile-values';
import type { Body, HttpInput, Pair, RecentIds, SignatureMode } from './http-input';
import type { Endpoint } from './openapi-endpoints';
import { type FuzzWorld, plausibleValue } from './plausible-values';
import { CREDENTIAL_NOT_VALID, httpMutation } from './http-mutations';

/** A request that could pass for a real call of the endpoint: required parameters, some optional ones, a fresh timestamp. */
function plausibleInput(endpoint: Endpoint, world: FuzzWorld): fc.Arbitrary<HttpInput> {
  const own = endpoint.params.filter(
    (p) => p.in === 'query' && !['timestamp', 'signature', 'recvWindow'].includes(p.name),
  );
  const required = own.filter((p) => p.required);
  const optional = own.filter((p) => !p.required);
  const pathParams = endpoint.params.filter((p) => p.in === 'path');
  // Calls that name an order name one the fuzz placed, half of the time, so cancels and queries reach a real order.
  const recentOf = (name: string): keyof RecentIds | undefined =>
    endpoint.path.startsWith('/openapi/v1/order')
      ? ({ orderId: 'orderId', origClientOrderId: 'clientOrderId', newClientOrderId: 'clientOrderId' } as const)[
          name as 'orderId'
        ]
      : undefined;
  const pairOf = (p: (typeof own)[number]) => {
    const plain = plausibleValue(p, world, endpoint.path).map((value): Pair => ({ name: p.name, value }));
    const recent = recentOf(p.name);
    return recent
      ? fc.oneof(
          plain,
          fc.nat().map((pick): Pair => ({ name: p.name, value: { recent, pick } })),
        )
      : plain;
  };
  return fc
    .record({
      required: fc.tuple(...required.map(pairOf)),
      optional: fc.subarray(optional).chain((chosen) => fc.tuple(...chosen.map(pairOf))),
      path: fc.tuple(
        ...pathParams.map((p) =>
          plausibleValue(p, world, endpoint.path).map((v) => [p.name, percentEncode(v)] as const),
        ),
      ),
      recvWindow: fc.option(fc.constantFrom('5000', '60000'), { freq: 4 }),
    })
    .map(({ required: req, optional: opt, path, recvWindow }) => {
      const query: Pair[] = [...req, ...opt];
      if (endpoint.cls === 'signed') {
        query.push({ name: 'timestamp', value: { now: 0 } });
        if (recvWindow) query.push({ name: 'recvWindow', value: recvWindow });
      }
      return {
        endpoint,
        method: endpoint.method,
        pathParams: Object.fromEntries(path),
        pathSuffix: '',
        query,
        body: { kind: 'none' } as Body,
        headers: [],
        credential: { kind: 'valid' } as const,
        signature: 'valid' as SignatureMode,
        chunked: false,
        httpVersion: 'HTTP/1.1',
        notes: [],
        replay: 'no' as const,
      };
    });
}

/**
 * Generated input for the endpoints of one class: a plausible call of a documented endpoint with
 * up to three hostile mutations applied (none in a few, so the success shapes are checked too).
 */
export function httpInputs(endpoints: Endpoint[], world: FuzzWorld, names: string[]): fc.Arbitrary<HttpInput> {
  return fc
    .constantFrom(...endpoints)
    .chain((endpoint) => {
      // One mutation mostly: an input with several is refused at the door (-1022, -1102) and never reaches the handler.
      const count = fc.oneof(
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 6, arbitrary: fc.constant(1) },
        { weight: 2, arbitrary: fc.constant(2) },
        { weight: 1, arbitrary: fc.constant(3) },
      );
      return fc.tuple(
        plausibleInput(endpoint, world),
        count.chain((n) => fc.array(httpMutation(endpoint, names), { minLength: n, maxLength: n })),
      );
    })
    .map(([input, mutations]) => {
      for (const mutation of mutations) mutation(input);
      // A raw path of its own may land on a public route (`http://x/openapi/v1/time`), which reads no
      // credential: a verdict the credential mutation drew before the path changed no longer holds.
      if (input.pathOverride !== undefined && input.mustReject === CREDENTIAL_NOT_VALID) delete input.mustReject;
      input.mustReject ??= certainlyInvalid(input);
      return input;
    });
}

/**
 * Reasons an input is invalid whatever the rest holds: API-DECISIONS.md refuses a documented
 * parameter repeated within one source (-1101, JSON keys included), text with control characters in a
 * documented parameter (-1100), and a documented required parameter missing (-1102; only judged
 * when no optional parameter is present, since an alias may stand in for it).
 */
function certainlyInvalid(input: HttpInput): string | undefined {
  // A raw path may land on a public route, which signs nothing.
  if (input.pathOverride !== undefined) return undefined;
  if (input.endpoint.cls === 'signed') {
    const optional = input.endpoint.params.some((p) => p.name === 'signature' && !p.required);
    if (
      ['wrong-secret', 'garbage', 'twice', 'stale'].includes(input.signature) ||
      (input.signature === 'missing' && !optional)
    )
      return `signature ${input.signature}`;
  }
  // A changed path lands elsewhere (usually -1020): the endpoint's own rules do not apply.
  if (input.pathOverride !== undefined || input.pathSuffix !== '') return undefined;
  const documented = new Set(input.endpoint.params.map((p) => p.name));
  const sources: Pair[][] = [input.query];
  if (bodyRead(input) && (input.body.kind === 'form' || input.body.kind === 'json')) sources.push(input.body.pairs);
  if (bodyRead(input) && input.body.kind === 'json' && input.body.style === 'duplicate' && input.body.pairs.length > 0)
    return `duplicate JSON key '${input.body.pairs[0]!.name}'`;
  for (const pairs of input.body.kind === 'split' ? [] : sources) {
    const seen = new Set<string>();
    for (const pair of pairs) {
      const name = decodedName(pair);
      if (seen.has(name) && documented.has(name)) return `parameter '${name}' repeated in one source`;
      seen.add(name);
    }
  }
  // The value the endpoint reads: the query's when a name is in both (API-DECISIONS.md), else the body's.
  // Not for a split: where its cut falls decides which text is a value (`type=` + `%15…` leaves `type` empty).
  const inQuery = new Set(input.query.map(decodedName));
  const readPairs =
    input.body.kind === 'split'
      ? []
      : sources.flat().filter((p) => input.query.includes(p) || !inQuery.has(decodedName(p)));
  for (const pair of readPairs) {
    if (
      documented.has(decodedName(pair)) &&
      typeof pair.value === 'string' &&
      CONTROL.test(pair.raw ? safeDecode(pair.value) : pair.value)
    )
      return `control character in '${pair.name}'`;
  }
  const present = new Set(
    sources
      .flat()
      .filter((p) => p.value !== '')
      .map(decodedName),
  );
  const optionalPresent = input.endpoint.params.some(
    (p) => !p.required && p.in === 'query' && p.name !== 'recvWindow' && present.has(p.name),
  );
  if (
    input.body.kind !== 'split' &&
    input.body.kind !== 'raw' &&
    input.method === input.endpoint.method &&
    !optionalPresent
  ) {
    const missing = input.endpoint.params.find(
      (p) => p.required && p.in === 'query' && p.name !== 'signature' && !present.has(p.name),
    );
    if (missing) return `required '${missing.name}' missing`;
  }
  return undefined;
}

/** Only private endpoints take parameters from a body, and only with a method that has one. */
function bodyRead(input: HttpInput): boolean {
  return (
    input.endpoint.cls !== 'public' &&
    input.method === input.endpoint.method &&
    ['POST', 'PUT', 'DELETE'].includes(input.method) &&
    input.contentType === undefined
  );
}

function decodedName(pair: Pair): string {
  return pair.raw ? safeDecode(pair.name) : pair.name;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Besides the random inputs, a sweep that does not depend on luck: every documented parameter of
 * every endpoint once with a NUL in its value (one NUL got to PostgreSQL and froze a ledger
 * partition), in a request otherwise plausible.
 */
export function nulSweep(endpoints: Endpoint[], world: FuzzWorld, seed: number): HttpInput[] {
  const inputs: HttpInput[] = [];
  for (const endpoint of endpoints) {
    const [base] = fc.sample(plausibleInput(endpoint, world), { seed, numRuns: 1 });
    for (const param of endpoint.params.filter(
      (p) => p.in !== 'header' && !['timestamp', 'signature'].includes(p.name),
    )) {
      const input: HttpInput = structuredClone({ ...base!, endpoint: undefined as never });
      input.endpoint = endpoint;
      // Alone with the required ones: an optional sibling (orderId beside origClientOrderId) may take precedence and hide it.
      const kept = (name: string) =>
        name !== param.name &&
        (['timestamp', 'recvWindow'].includes(name) || endpoint.params.some((p) => p.name === name && p.required));
      if (param.in === 'path') input.pathParams[param.name] = percentEncode('1\u0000');
      else input.query = [...input.query.filter((p) => kept(p.name)), { name: param.name, value: '1\u0000' }];
      input.notes.push(`${param.name}: NUL (sweep)`);
      input.mustReject = `control character in '${param.name}'`;
      inputs.push(input);
    }
  }
  return inputs;
}
