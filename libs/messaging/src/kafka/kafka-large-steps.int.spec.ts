import { randomBytes } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import type { Consumer } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log';

const brokers = realServiceAddress('KAFKA_BROKERS', 'steps larger than max.message.bytes on Apache Kafka');

/**
 * The broker refuses a record batch above message.max.bytes (1 MB by default) for one partition,
 * and a refused step is redelivered and refused again: the ledger deciding ~1,500 queued commands
 * of one partition in one batch stalled there. A publish of 3 MB to one partition, and steps
 * emitting eight times what they read, in records of 4 KB (each far below the limit), go through.
 */
(brokers ? describe : describe.skip)('Kafka steps and publishes larger than one record batch may be', () => {
  const run = randomBytes(4).toString('hex');
  const published = { name: `large-published-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  const input = { name: `large-in-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  const output = { name: `large-out-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  const value = (n: number) => `${n}:${'x'.repeat(4096)}`;
  let log: KafkaEventLog;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    log = new KafkaEventLog({ brokers: brokers!.split(','), clientId: `large-${run}` });
    await log.createTopics([published, input, output]);
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await log.close();
  });

  it('publishes 3 MB to one partition at once, in order', async () => {
    const values = Array.from({ length: 768 }, (_, n) => value(n));
    await log.publish(values.map((v) => ({ topic: published.name, key: 'k', value: v })));
    const read: string[] = [];
    await log.read(published.name, 0, 0, async (records) => void read.push(...records.map((r) => r.value)));
    expect(read).toEqual(values);
  }, 60_000);

  it('commits a step that emits 2 MB or more to one partition, with its input offset', async () => {
    // 1 MB in, published in requests of 256 KB (which fit one record batch with or without splitting).
    const values = Array.from({ length: 256 }, (_, n) => value(n));
    for (let start = 0; start < values.length; start += 64)
      await log.publish(values.slice(start, start + 64).map((v) => ({ topic: input.name, key: 'k', value: v })));
    const copies = [1, 2, 3, 4, 5, 6, 7, 8];
    consumers.push(
      await log.consume({
        groupId: `large-${run}`,
        topics: [input.name],
        fromBeginning: true,
        // Eight records out of each one in, as the ledger's events out of its commands: a fetch of 256 KB or more emits 2 MB or more.
        eachBatch: async (batch) => ({
          emit: batch.records.flatMap((r) => copies.map(() => ({ topic: output.name, key: r.key, value: r.value }))),
        }),
      }),
    );
    await waitFor(
      async () => (await log.committedOffsets(`large-${run}`, input.name))[0] === values.length,
      'the steps committed',
      30_000,
      200,
    );
    const read: string[] = [];
    await log.read(output.name, 0, 0, async (records) => void read.push(...records.map((r) => r.value)));
    expect(read).toEqual(values.flatMap((v) => copies.map(() => v)));
  }, 60_000);
});
