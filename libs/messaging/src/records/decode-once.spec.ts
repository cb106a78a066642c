import type { IncomingRecord } from '../event-log.port';
import { attachProduced, decodeOnce, decodeRecord } from './decode-once';

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

describe('a message its producer appended in this process', () => {
  const message = { type: 'T', payload: { n: 1 } };
  const parse = (value: string) => JSON.parse(value) as typeof message;
  const appended = (): IncomingRecord => {
    const record = recordOf(JSON.stringify(message));
    attachProduced(record, { type: 'T', payload: { n: 1 } });
    return record;
  };

  it('is what consumers get, the same object for each, by decodeRecord or decodeOnce', () => {
    const record = appended();
    const value = decodeRecord(record, parse);
    expect(value).toEqual(message);
    expect(decodeRecord(record, parse)).toBe(value);
    expect(decodeOnce(record, parse)).toBe(value);
    expect(decodeOnce(record, (v) => parse(v))).toBe(value);
  });

  it('is frozen under tests, so a producer that mutates what it appended fails', () => {
    const produced = { type: 'T', payload: { n: 1 } };
    attachProduced(recordOf(JSON.stringify(produced)), produced);
    expect(() => {
      produced.payload.n = 2;
    }).toThrow(TypeError);
  });

  it('fails under tests when a decoder would make something else of the text, in the consumer and outside it', () => {
    const record = recordOf('{"type":"T","payload":{"n":1}}');
    attachProduced(record, { type: 'T', payload: { n: 1 }, extra: true });
    const outside: (() => void)[] = [];
    const nextTick = jest
      .spyOn(process, 'nextTick')
      .mockImplementation((callback) => void outside.push(callback as () => void));
    try {
      expect(() => decodeRecord(record, parse)).toThrow('is not what parse makes of its text');
    } finally {
      nextTick.mockRestore();
    }
    expect(outside).toHaveLength(1);
    expect(() => outside[0]!()).toThrow('is not what parse makes of its text');
  });

  it('is not a field of the record: copies and comparisons show its fields only', () => {
    const record = appended();
    expect({ ...record }).toEqual(recordOf(JSON.stringify(message)));
    expect(Object.keys(record)).toEqual(Object.keys(recordOf('{}')));
  });
});

describe('decodeRecord', () => {
  it('decodes a record without a producer message each time, keeping nothing on it', () => {
    const record = recordOf('{"a":1}');
    const decode = jest.fn((value: string) => JSON.parse(value) as { a: number });
    expect(decodeRecord(record, decode)).toEqual({ a: 1 });
    expect(decodeRecord(record, decode)).not.toBe(decodeRecord(record, decode));
    expect(decode).toHaveBeenCalledTimes(3);
  });
});
