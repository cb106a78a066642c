import { ProcessedIds } from './processed-ids';

describe('ProcessedIds', () => {
  it('remembers ids until they expire, oldest first', () => {
    const ids = new ProcessedIds();
    ids.add('a', 100);
    ids.add('b', 200);
    ids.add('c', 300);
    ids.expire(200);
    expect([ids.has('a'), ids.has('b'), ids.has('c'), ids.size]).toEqual([false, true, true, 2]);
    ids.expire(301);
    expect(ids.size).toBe(0);
  });
});
