import { splitIntoRequests } from './kafka-requests';

const record = (n: number, bytes: number) => ({ topic: 't', key: 'k', value: `${n}`.padEnd(bytes, 'x') });

describe('splitIntoRequests', () => {
  it('keeps what fits in one request together', () => {
    const records = [1, 2, 3].map((n) => record(n, 100));
    expect(splitIntoRequests(records, 1000)).toEqual([records]);
  });

  it('splits in order into requests below the bound, a record too large for any going alone', () => {
    const records = [record(1, 400), record(2, 400), record(3, 2000), record(4, 400)];
    expect(splitIntoRequests(records, 1000)).toEqual([[records[0], records[1]], [records[2]], [records[3]]]);
  });

  it('counts headers', () => {
    const withHeaders = { ...record(1, 100), headers: { h: 'v'.repeat(900) } };
    expect(splitIntoRequests([withHeaders, record(2, 100)], 1000)).toHaveLength(2);
  });
});
