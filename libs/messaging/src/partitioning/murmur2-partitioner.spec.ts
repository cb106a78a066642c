import { murmur2, partitionForKey } from './murmur2-partitioner';

// kafkajs's own port of Java's partitioner, as the second opinion for arbitrary keys.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: string | Buffer) => number;

describe('murmur2 partitioner', () => {
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('matches the Java client for %s (Kafka UtilsTest vectors)', (key, expected) => {
    expect(murmur2(Buffer.from(key))).toBe(expected);
  });

  it('agrees with kafkajs on user ids and symbols, for every partition count in use', () => {
    const keys = ['BTCUSDT', 'ETHUSDT', 'ETHBTC', ...Array.from({ length: 500 }, (_, i) => String(100000 + i * 7919))];
    for (const key of keys) {
      expect(murmur2(Buffer.from(key))).toBe(kafkajsMurmur2(key));
      for (const n of [1, 4, 8, 12]) {
        expect(partitionForKey(key, n)).toBe((kafkajsMurmur2(key) & 0x7fffffff) % n);
      }
    }
  });

  it('hashes multi-byte UTF-8 keys by their bytes', () => {
    expect(murmur2(Buffer.from('ключ'))).toBe(kafkajsMurmur2(Buffer.from('ключ')));
  });
});
