import { randomBytes } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import type { Consumer, IncomingBatch } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log';

const brokers = realServiceAddress('KAFKA_BROKERS', 'transaction markers on Apache Kafka');

/**
 * A topic written in transactions ends on a commit marker no consumer is handed. A group that
 * consumed everything must still commit past it, or "the group reached the end" (what a read
 * waiting for a projection asks) would never hold.
 */
(brokers ? describe : describe.skip)('Kafka group offsets past transaction markers', () => {
  const run = randomBytes(4).toString('hex');
  const input = { name: `markers-in-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  const output = { name: `markers-out-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  let log: KafkaEventLog;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    log = new KafkaEventLog({ brokers: brokers!.split(','), clientId: `markers-${run}` });
    await log.createTopics([input, output]);
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await log.close();
  });

  it('commits the reading group to the end offset of a transactionally written topic', async () => {
    consumers.push(
      await log.consume({
        groupId: `writer-${run}`,
        topics: [input.name],
        fromBeginning: true,
        eachBatch: async (batch) => ({
          emit: batch.records.map((r) => ({ topic: output.name, key: r.key, value: r.value })),
        }),
      }),
    );
    let read = 0;
    const batches: IncomingBatch[] = [];
    consumers.push(
      await log.consume({
        groupId: `reader-${run}`,
        topics: [output.name],
        fromBeginning: true,
        eachBatch: async (batch) => {
          batches.push(batch);
          read += batch.records.length;
        },
      }),
    );
    await log.publish([1, 2, 3].map((n) => ({ topic: input.name, key: 'k', value: String(n) })));
    await waitFor(async () => read === 3, 'the reader to get the three records', 60_000);
    await waitFor(
      async () => {
        const [end] = await log.endOffsets(output.name);
        const [committed] = await log.committedOffsets(`reader-${run}`, output.name);
        return end! > 3 && committed === end;
      },
      'the reader group committed past the commit markers',
      60_000,
    );

    // The next batch starts after a marker: it names where the previous one ended, so a handler knows nothing was skipped.
    await log.publish([{ topic: input.name, key: 'k', value: '4' }]);
    await waitFor(async () => read === 4, 'the fourth record', 60_000);
    const [previous, next] = batches.slice(-2);
    expect(next!.records[0]!.offset).toBeGreaterThan(previous!.nextOffset);
    expect(next!.fromOffset).toBe(previous!.nextOffset);
  }, 120_000);
});
