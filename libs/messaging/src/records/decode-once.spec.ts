import type { IncomingRecord } from '../event-log.port';
import { decodeOnce } from './decode-once';

const recordOf = (value: string): IncomingRecord => ({
  topic: 't',
  partition: 0,
  offset: 0,
  key: 'k',
  value,
  headers: {},
  timestamp: 1,
});

describe('decodeOnce', () => {
  it('decodes a record once per decoder and hands every consumer the same value', () => {
    const record = recordOf('{"a":{"b":1}}');
    const decode = jest.fn((value: string) => JSON.parse(value) as { a: { b: number } });
    const first = decodeOnce(record, decode);
    expect(decodeOnce(record, decode)).toBe(first);
    expect(decode).toHaveBeenCalledTimes(1);
    expect(first).toEqual({ a: { b: 1 } });
  });

  it('keeps the values of different decoders apart, and an undefined (refused) value too', () => {
    const record = recordOf('not json');
    const strict = jest.fn(() => undefined);
    const text = (value: string) => value.length;
    expect(decodeOnce(record, strict)).toBeUndefined();
    expect(decodeOnce(record, strict)).toBeUndefined();
    expect(strict).toHaveBeenCalledTimes(1);
    expect(decodeOnce(record, text)).toBe(8);
  });

  it('freezes the shared value under tests, so a consumer that mutates it fails', () => {
    const value = decodeOnce(recordOf('{"a":{"b":1}}'), (v) => JSON.parse(v) as { a: { b: number } });
    expect(() => {
      value.a.b = 2;
    }).toThrow(TypeError);
  });

  it('leaves the record looking as it did: copies and comparisons show its fields only', () => {
    const record = recordOf('{}');
    decodeOnce(record, (v) => JSON.parse(v) as object);
    expect({ ...record }).toEqual(recordOf('{}'));
    expect(Object.keys(record)).toEqual(Object.keys(recordOf('{}')));
  });
});
