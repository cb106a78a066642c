// One measurement of one event-log client, run in its own pinned process by event-log.bench.ts.
// Usage: event-log-worker.ts <embedded|kafka-adapter|kafkajs-raw> <batched|single|latency> <count>
// Prints one JSON line: { ratePerSec } or { p50Ms, p99Ms }.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel } from 'kafkajs';
import { EmbeddedEventLog, type EventLog, KafkaEventLog, type OutgoingRecord } from '../../libs/messaging/src';
import { percentile } from '../support/stats';

type Subject = 'embedded' | 'kafka-adapter' | 'kafkajs-raw';
type Mode = 'batched' | 'single' | 'latency';

const PARTITIONS = 4;
const BATCH = 500;
const VALUE = JSON.stringify({
  type: 'BenchRecorded',
  v: 1,
  id: 'x'.repeat(36),
  ts: 0,
  payload: { pad: 'p'.repeat(120) },
});
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

/** The operations measured, the same for our adapters and for raw kafkajs. */
interface Client {
  publish(records: OutgoingRecord[]): Promise<void>;
  consume(groupId: string, onRecords: (values: string[]) => void): Promise<void>;
  close(): Promise<void>;
}

async function adapterClient(log: EventLog, topic: string): Promise<Client> {
  await log.createTopics([{ name: topic, partitions: PARTITIONS, key: 'userId', config: {} }]);
  return {
    publish: (records) => log.publish(records),
    consume: async (groupId, onRecords) => {
      await log.consume({
        groupId,
        topics: [topic],
        fromBeginning: true,
        eachBatch: async (b) => onRecords(b.records.map((r) => r.value)),
      });
    },
    close: () => log.close(),
  };
}

/** kafkajs as its documentation shows it, with the same acks, idempotence and in-flight limit as ours. */
async function rawKafkajsClient(topic: string): Promise<Client> {
  const kafka = new Kafka({ clientId: 'bench-raw', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }],
  });
  await admin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  const consumers: ReturnType<typeof kafka.consumer>[] = [];
  return {
    publish: async (records) => {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic, messages: records.map((r) => ({ key: r.key, value: r.value })) }],
      });
    },
    consume: async (groupId, onRecords) => {
      const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      // Committing after every batch, as our adapter must, so both sides pay for the same durability.
      await consumer.run({
        autoCommitThreshold: 1,
        eachBatch: async ({ batch }) => onRecords(batch.messages.map((m) => m.value?.toString() ?? '')),
      });
    },
    close: async () => {
      await Promise.all(consumers.map((c) => c.disconnect()));
      await producer.disconnect();
    },
  };
}

async function openClient(subject: Subject, topic: string): Promise<Client> {
  if (subject === 'embedded')
    return adapterClient(
      await EmbeddedEventLog.open({ dir: mkdtempSync(join(tmpdir(), 'bench-log-')), fsync: 'always' }),
      topic,
    );
  if (subject === 'kafka-adapter')
    return adapterClient(new KafkaEventLog({ brokers, clientId: 'bench-adapter' }), topic);
  return rawKafkajsClient(topic);
}

function records(
  topic: string,
  from: number,
  count: number,
  value: (i: number) => string = () => VALUE,
): OutgoingRecord[] {
  return Array.from({ length: count }, (_, i) => ({ topic, key: String((from + i) % 1000), value: value(from + i) }));
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 1));
}

async function batched(client: Client, topic: string, count: number): Promise<Record<string, number>> {
  const started = performance.now();
  for (let i = 0; i < count; i += BATCH) await client.publish(records(topic, i, Math.min(BATCH, count - i)));
  const produced = performance.now();
  let seen = 0;
  const consumeStarted = performance.now();
  await client.consume(`bench-${randomUUID()}`, (values) => (seen += values.length));
  await waitUntil(() => seen >= count);
  const consumed = performance.now();
  return {
    producePerSec: count / ((produced - started) / 1000),
    consumePerSec: count / ((consumed - consumeStarted) / 1000),
  };
}

async function single(client: Client, topic: string, count: number): Promise<Record<string, number>> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await client.publish(records(topic, i, 1));
  return { producePerSec: count / ((performance.now() - started) / 1000) };
}

/** Publishes small batches at a steady pace; each value carries its send time on this process's clock. */
async function latency(client: Client, topic: string, count: number): Promise<Record<string, number>> {
  let latencies: number[] = [];
  await client.consume(`bench-${randomUUID()}`, (values) => {
    const now = performance.now();
    for (const v of values) latencies.push(now - Number(v));
  });
  // The consumer has joined its group once a first record comes back; only then does timing start.
  await client.publish(records(topic, 0, 1, () => String(performance.now())));
  await waitUntil(() => latencies.length >= 1);
  latencies = [];
  for (let i = 0; i < count; i += 10) {
    await client.publish(records(topic, i, 10, () => String(performance.now())));
    await new Promise((r) => setTimeout(r, 5));
  }
  await waitUntil(() => latencies.length >= count);
  latencies.sort((a, b) => a - b);
  return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

async function main(): Promise<void> {
  const [subject, mode, countText] = process.argv.slice(2) as [Subject, Mode, string];
  const topic = `bench-${mode}-${randomUUID()}`;
  const client = await openClient(subject, topic);
  const count = Number(countText);
  const result =
    mode === 'batched'
      ? await batched(client, topic, count)
      : mode === 'single'
        ? await single(client, topic, count)
        : await latency(client, topic, count);
  await client.close();
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
