import fc from 'fast-check';
import { hostileValue, percentEncode } from './hostile-values';

/** One client message on a socket: text or binary, with what makes it hostile. */
export interface SocketFrame {
  label: string;
  data: Buffer;
  binary: boolean;
}

const text = (label: string, arb: fc.Arbitrary<string>): fc.Arbitrary<SocketFrame> =>
  arb.map((s) => ({ label, data: Buffer.from(s, 'utf8'), binary: false }));
const json = (label: string, arb: fc.Arbitrary<unknown>): fc.Arbitrary<SocketFrame> =>
  text(
    label,
    arb.map((v) => JSON.stringify(v) ?? 'null'),
  );
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue.map((h) => h.value),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string()),
  fc.dictionary(fc.string(), fc.string()),
  fc.constant(1e308),
  fc.constant(-0),
);

/**
 * Client messages for the public stream (`{symbol, topic, event}`, `{ping}`) and the user stream
 * (`{ping}`): not JSON, frames beyond the size caps, JSON of the wrong shape, unknown topics and
 * symbols, hostile values in every field, binary frames, and now and then a real subscription so
 * data frames are judged too.
 */
export function socketFrames(symbols: string[]): fc.Arbitrary<SocketFrame> {
  const event = fc.oneof(fc.constantFrom('sub', 'cancel', 'cancel_all', 'SUB', 'unsub', ''), anyValue);
  const topic = fc.oneof(
    fc.constantFrom(
      'trade',
      'realtimes',
      'depth',
      'diffDepth',
      'kline_1m',
      'kline_',
      'kline_7m',
      'kline_1m\u0000',
      'Trade',
      'depth ',
      'mergedDepth',
      'kline_1m,trade',
    ),
    anyValue,
  );
  const symbol = fc.oneof(
    fc.constantFrom(...symbols),
    fc.constantFrom('XYZ', 'btcusdt', 'BTC-USDT', ',', 'BTCUSDT,', ' BTCUSDT', `${symbols.join(',')},XYZ`, '\u0000'),
    fc
      .integer({ min: 2, max: 3000 })
      .map((n) => Array.from({ length: n }, (_, k) => symbols[k % symbols.length]).join(',')),
    anyValue,
  );
  return fc.oneof(
    {
      weight: 2,
      arbitrary: text(
        'not JSON',
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 40 }),
          fc.constantFrom(
            '{',
            '}',
            'ping',
            '{"ping":',
            '[',
            '',
            ' ',
            'null',
            'undefined',
            '\u0000',
            '{"ping":1}{"ping":2}',
          ),
        ),
      ),
    },
    {
      weight: 1,
      arbitrary: text(
        'huge frame',
        fc.integer({ min: 1_025, max: 300_000 }).map((n) => JSON.stringify({ ping: 'x'.repeat(n) })),
      ),
    },
    {
      weight: 1,
      arbitrary: text(
        'deep nesting',
        fc.integer({ min: 100, max: 4_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
      ),
    },
    {
      weight: 3,
      arbitrary: json('wrong shape', fc.oneof(fc.jsonValue(), fc.array(fc.record({ symbol, topic, event })))),
    },
    { weight: 5, arbitrary: json('subscription message', fc.record({ symbol, topic, event }, { requiredKeys: [] })) },
    {
      weight: 1,
      arbitrary: json(
        'extra fields',
        fc.record({ symbol, topic, event, params: anyValue, id: anyValue, binary: anyValue, __proto__x: anyValue }),
      ),
    },
    { weight: 2, arbitrary: json('ping of any value', fc.record({ ping: anyValue })) },
    {
      weight: 1,
      arbitrary: json(
        'real subscription',
        fc.record({
          symbol: fc.constantFrom(...symbols),
          topic: fc.constantFrom('trade', 'realtimes', 'depth', 'diffDepth', 'kline_1m'),
          event: fc.constant('sub'),
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .uint8Array({ minLength: 0, maxLength: 2_000 })
        .map((bytes): SocketFrame => ({ label: 'binary frame', data: Buffer.from(bytes), binary: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"ping":1}', '{"symbol":"BTCUSDT","topic":"trade","event":"sub"}')
        .map((s): SocketFrame => ({ label: 'JSON in a binary frame', data: Buffer.from(s), binary: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from([0xff, 0xfe, 0x7b]),
          Buffer.from([0xc0, 0x80]),
          Buffer.from('{"ping":"\ud800"}', 'utf16le'),
        )
        .map((data): SocketFrame => ({ label: 'invalid UTF-8 text', data, binary: false })),
    },
  );
}

/** The upgrade request's hostile parts: the path tail, the query, the handshake headers. */
export interface HandshakeInput {
  label: string;
  /** Appended to the protocol's path (for the user stream: in place of the listenKey unless `keepKey`). */
  tail: string;
  keepKey: boolean;
  method: string;
  headers: [string, string][];
  /** Leave out these handshake headers. */
  omit: string[];
}

export function handshakeInputs(): fc.Arbitrary<HandshakeInput> {
  const tail = fc.oneof(
    fc.constant(''),
    hostileValue.map((h) => percentEncode(h.value)),
    fc.constantFrom('/', '//x', '?a=%00', '?a=%zz', '%00', '/../v1', '?' + 'q'.repeat(9000)),
  );
  return fc
    .record({
      tail,
      keepKey: fc.boolean(),
      method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'HEAD'),
      headers: fc
        .tuple(
          fc.subarray<[string, string]>([
            ['Sec-WebSocket-Version', '12'],
            ['Sec-WebSocket-Protocol', 'a, , b'],
            ['Sec-WebSocket-Extensions', 'permessage-deflate; client_max_window_bits=99'],
            ['Origin', '\u00ff'],
          ]),
          // Rare: past Node's header limit every upgrade meets the same 431, whatever else it holds.
          fc.oneof(
            { weight: 7, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constant<[string, string]>(['X-Padding', 'p'.repeat(20_000)]) },
          ),
        )
        .map(([some, padding]) => (padding ? [...some, padding] : some)),
      omit: fc.subarray(['Sec-WebSocket-Key', 'Sec-WebSocket-Version', 'Upgrade', 'Connection']),
    })
    .map((h) => ({
      ...h,
      label: [
        h.method,
        h.tail.length > 30 ? `tail(${h.tail.length})` : JSON.stringify(h.tail),
        h.keepKey ? 'key kept' : '',
        ...h.headers.map(([n]) => n),
        ...h.omit.map((o) => `no ${o}`),
      ]
        .filter(Boolean)
        .join(' '),
    }));
}

/** The upgrade request as bytes; `path` is the protocol's full path (the user stream's with its listenKey). */
export function renderHandshake(input: HandshakeInput, path: string, userStreamPrefix?: string): Buffer {
  const target = userStreamPrefix && !input.keepKey ? `${userStreamPrefix}${input.tail}` : `${path}${input.tail}`;
  const headers: [string, string][] = [
    ['Host', '127.0.0.1'],
    ['Upgrade', 'websocket'],
    ['Connection', 'Upgrade'],
    ['Sec-WebSocket-Key', Buffer.from('fuzz-handshake!!').toString('base64')],
    ['Sec-WebSocket-Version', '13'],
  ];
  const lines = [`${input.method} ${target} HTTP/1.1`];
  for (const [name, value] of headers) {
    const override = input.headers.find(([n]) => n === name);
    if (!input.omit.includes(name)) lines.push(`${name}: ${override ? override[1] : value}`);
  }
  for (const [name, value] of input.headers) if (!headers.some(([n]) => n === name)) lines.push(`${name}: ${value}`);
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}
