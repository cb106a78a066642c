import fc from 'fast-check';

/** A value with the reason it is hostile, so a failure report says what was sent in words. */
export interface Hostile {
  label: string;
  value: string;
  /** Holds a control character (C0, DEL) or NUL: text the edge must refuse (-1100) wherever a documented parameter takes it. */
  control: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
const hostile = (label: string, arb: fc.Arbitrary<string>): fc.Arbitrary<Hostile> =>
  arb.map((value) => ({ label, value, control: CONTROL.test(value) }));

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Values of the wrong kind for any parameter: numbers out of every range, exponents, signs, text where numbers go and back. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  // NUL and control characters weigh more: one of them froze a ledger partition (issue 13).
  {
    weight: 3,
    arbitrary: hostile('NUL', fc.constantFrom('\u0000', '1\u0000', 'BTCUSDT\u0000', '\u0000\u0000\u0000', 'a\u0000b')),
  },
  {
    weight: 3,
    arbitrary: hostile(
      'control characters',
      fc
        .string({
          unit: fc.constantFrom('\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', 'a', '1'),
          minLength: 1,
          maxLength: 12,
        })
        .filter((s) => CONTROL.test(s)),
    ),
  },
  hostile('empty', fc.constant('')),
  hostile(
    'huge integer',
    digits(17, 400).map((d) => `9${d}`),
  ),
  hostile(
    'max safe + 1',
    fc.constantFrom(
      '9007199254740992',
      '18446744073709551616',
      '-9223372036854775809',
      '1e308',
      '1.7976931348623157e309',
    ),
  ),
  hostile(
    'negative',
    fc.oneof(
      fc.integer({ min: -1_000_000_000, max: -1 }).map(String),
      fc.constantFrom('-0', '-0.0', '-1', '-0.00000001'),
    ),
  ),
  hostile('zero', fc.constantFrom('0', '0.0', '00', '0.00000000', '.0', '0.')),
  hostile(
    'exponent',
    fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
  ),
  hostile(
    'float oddity',
    fc.constantFrom(
      'NaN',
      'Infinity',
      '-Infinity',
      '1.',
      '.5',
      '1..2',
      '0x10',
      '0b1',
      '1_000',
      ' 1',
      '1 ',
      '+1',
      '1,5',
      '١٢٣',
    ),
  ),
  hostile(
    'many decimals',
    fc.tuple(digits(1, 3), digits(9, 60)).map(([i, f]) => `${i}.${f}`),
  ),
  hostile(
    'wrong type',
    fc.constantFrom(
      'true',
      'false',
      'null',
      'undefined',
      '[]',
      '{}',
      '[1]',
      '{"a":1}',
      'BUY',
      'LIMIT',
      'BTCUSDT',
      'btc-usdt',
    ),
  ),
  hostile('unicode', fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 })),
  hostile(
    'lone surrogate and specials',
    fc.constantFrom('\ud800', '\udfff', '\ufffe', '\uffff', '\u202e', '\u200b', '\ufeff', '𝟙𝟚𝟛', 'Ⅻ'),
  ),
  hostile(
    'very long string',
    fc
      .tuple(fc.constantFrom('a', '9', '%', '\u00e9', 'Z'), fc.integer({ min: 1_000, max: 30_000 }))
      .map(([c, n]) => c.repeat(n)),
  ),
  hostile(
    'injection',
    fc.constantFrom(
      "' OR 1=1 --",
      '"; DROP TABLE balances; --',
      '${7*7}',
      '../../etc/passwd',
      '<script>',
      '%00',
      '%',
      '&',
      '=',
      '&signature=',
      '\\',
    ),
  ),
  hostile(
    'binary',
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  ),
);

/** Names a request may carry that no endpoint documents, or with their case changed. */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'SYMBOL',
    'Signature',
    'timestamp[]',
    'a[b]',
    'signature ',
    ' timestamp',
  ),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
);

/** Methods no route takes, or takes under another spelling. */
export const oddMethod: fc.Arbitrary<string> = fc.constantFrom(
  'PATCH',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'SEARCH',
  'CONNECT',
  'get',
  'Post',
  'FOO',
  'GETT',
  'DELETE',
  'PUT',
  'POST',
  'GET',
);

/**
 * Percent-encodes the UTF-8 bytes of any string: unlike encodeURIComponent it does not throw on a
 * lone surrogate (which UTF-8 turns into U+FFFD, as a client library would send it).
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export { CONTROL };
