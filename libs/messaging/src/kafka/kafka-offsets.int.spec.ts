import { randomBytes } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import type { Consumer } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log';

const brokers = realServiceAddress('KAFKA_BROKERS', 'end and committed offsets on Apache Kafka');

// Every request of every kafkajs client goes through one of these methods of its Broker.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Broker = require('kafkajs/src/broker') as {
  prototype: Record<'metadata' | 'listOffsets' | 'offsetFetch', unknown>;
};

/**
 * What a gateway's lag check and a read waiting for a projection ask the broker: the end offsets
 * of topics and a group's committed offsets, each answered from the broker as of the moment asked
 * (a record acknowledged before the question is counted), at one request per question, whatever
 * the number of questions.
 */
(brokers ? describe : describe.skip)('Kafka end and committed offsets', () => {
  const run = randomBytes(4).toString('hex');
  const commands = { name: `offsets-a-${run}`, partitions: 3, key: 'userId' as const, config: {} };
  const orders = { name: `offsets-b-${run}`, partitions: 1, key: 'userId' as const, config: {} };
  const group = `offsets-group-${run}`;
  let log: KafkaEventLog;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    log = new KafkaEventLog({ brokers: brokers!.split(','), clientId: `offsets-${run}` });
    await log.createTopics([commands, orders]);
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await log.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('counts every acknowledged record in the end offsets, and a group in its committed offsets once it consumed them', async () => {
    for (let n = 1; n <= 5; n++) {
      await log.publish([
        { topic: commands.name, key: `u${n}`, value: String(n) },
        { topic: orders.name, key: `u${n}`, value: String(n) },
      ]);
      const [a, b] = await Promise.all([log.endOffsets(commands.name), log.endOffsets(orders.name)]);
      expect(a.reduce((sum, offset) => sum + offset, 0)).toBe(n);
      expect(a).toHaveLength(3);
      expect(b).toEqual([n]);
    }
    expect(await log.committedOffsets(group, commands.name)).toEqual([0, 0, 0]);
    consumers.push(
      await log.consume({
        groupId: group,
        topics: [commands.name],
        fromBeginning: true,
        eachBatch: async () => undefined,
      }),
    );
    const ends = await log.endOffsets(commands.name);
    await waitFor(
      async () => JSON.stringify(await log.committedOffsets(group, commands.name)) === JSON.stringify(ends),
      'the group to commit the end of every partition',
      60_000,
    );
  }, 120_000);

  it('answers a lag check of two topics and two groups with one ListOffsets and two OffsetFetch, and no Metadata, each time', async () => {
    const check = () =>
      Promise.all([
        log.endOffsets(commands.name),
        log.committedOffsets(group, commands.name),
        log.endOffsets(orders.name),
        log.committedOffsets(`${group}-other`, orders.name),
      ]);
    await check();
    const metadata = jest.spyOn(Broker.prototype, 'metadata' as never);
    const listOffsets = jest.spyOn(Broker.prototype, 'listOffsets' as never);
    const offsetFetch = jest.spyOn(Broker.prototype, 'offsetFetch' as never);
    const checks = 20;
    for (let i = 0; i < checks; i++) await check();
    expect({
      metadata: metadata.mock.calls.length,
      listOffsets: listOffsets.mock.calls.length,
      offsetFetch: offsetFetch.mock.calls.length,
    }).toEqual({ metadata: 0, listOffsets: checks, offsetFetch: 2 * checks });
  }, 60_000);
});
