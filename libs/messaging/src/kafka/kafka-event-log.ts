import { randomUUID } from 'node:crypto';
import {
  type Admin,
  type Consumer as KafkaConsumer,
  type EachBatchPayload,
  Kafka,
  logLevel,
  type Message,
  type Producer,
} from 'kafkajs';
import type { TopicDefinition } from '@exchange/contracts';
import type {
  Consumer,
  ConsumerOptions,
  EventLog,
  IncomingBatch,
  IncomingRecord,
  OutgoingRecord,
} from '../event-log.port';
import { partitionForKey } from '../partitioning/murmur2-partitioner';
import { KafkaGroupConsumer } from './kafka-group-consumer';
import { splitIntoRequests } from './kafka-requests';
import { patchKafkajsCoordinatorCache } from './kafkajs-coordinator-cache';
import { patchKafkajsIdleTimer } from './kafkajs-idle-timer';
import { type KafkajsOffsets, kafkajsOffsets } from './kafkajs-offsets';
import { PublishQueue } from './publish-queue';

/** Kafka's own consumer default (fetch.max.wait.ms). */
const CONSUMER_MAX_WAIT_MS = 500;
const RANGE_READ_MAX_WAIT_MS = 100;

export interface KafkaEventLogOptions {
  brokers: string[];
  clientId: string;
  /** Replication of created topics: 3 in production, 1 on a single test broker. */
  replicationFactor?: number;
  /**
   * Upper bound a consumer's fetch waits for data (CONSUMER_MAX_WAIT_MS by default). The broker
   * answers as soon as a record is there, so it does not delay records: it is how often an idle
   * consumer asks again, each time a request to encode, send over the socket and decode on both
   * sides (with 100 ms, idle polling was most of the services' requests per order).
   */
  maxWaitTimeInMs?: number;
  onWarning?: (message: string, details: Record<string, unknown>) => void;
}

/**
 * The event log on Apache Kafka through kafkajs. Plain publishes go through one idempotent
 * producer (acks=all, one request in flight, which kafkajs does not force but ordering under
 * retries needs); atomic consume-transform-produce steps go through one transactional producer per
 * input partition, `<group>.<topic>.<partition>`, because kafkajs lacks KIP-447.
 */
export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  /** End and committed offsets at one request each (undefined: another kafkajs version, the admin asks). */
  private readonly offsets: KafkajsOffsets | undefined;
  /** The topics whose end offsets are asked in this tick: one request for all of them. */
  private endsAsked: { topics: Set<string>; answer: Promise<Map<string, number[]>> } | undefined;
  private readonly producer: Producer;
  private readonly partitionCounts = new Map<string, number>();
  private readonly consumers = new Set<KafkaGroupConsumer>();
  private connected: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly publishes = new PublishQueue(async (records) => {
    for (const request of await this.toRequests(records))
      await this.producer.sendBatch({ acks: -1, topicMessages: request });
  });

  constructor(private readonly options: KafkaEventLogOptions) {
    patchKafkajsIdleTimer();
    patchKafkajsCoordinatorCache();
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      // kafkajs's own errors (a consumer crash, a broker lost) reach the service's log as warnings; the rest is noise.
      logLevel: logLevel.ERROR,
      logCreator: () => (entry) =>
        options.onWarning?.(`kafkajs: ${entry.log.message}`, { namespace: entry.namespace, ...entry.log }),
      retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 5000 },
    });
    this.admin = this.kafka.admin();
    this.offsets = kafkajsOffsets(this.kafka);
    this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  /**
   * Creates what is missing. Right after a creation the broker may still answer "unknown topic"
   * for a moment (more so when several clients create topics at once), so retriable errors are
   * retried with a back-off until every partition has a leader.
   */
  async createTopics(definitions: readonly TopicDefinition[]): Promise<void> {
    await this.connect();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.createMissing(definitions);
        for (const d of definitions) this.partitionCounts.delete(d.name);
        return;
      } catch (error) {
        if (attempt >= 10 || (error as { retriable?: boolean }).retriable !== true) throw error;
        this.options.onWarning?.('event log: topic creation not settled yet; retrying', {
          attempt,
          error: String(error),
        });
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  private async createMissing(definitions: readonly TopicDefinition[]): Promise<void> {
    const existing = new Set(await this.admin.listTopics());
    const missing = definitions.filter((d) => !existing.has(d.name));
    if (missing.length > 0) {
      await this.admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((d) => ({
          topic: d.name,
          numPartitions: d.partitions,
          replicationFactor: this.options.replicationFactor ?? 1,
          configEntries: Object.entries(d.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const metadata = await this.admin.fetchTopicMetadata({ topics: definitions.map((d) => d.name) });
    for (const topic of metadata.topics) {
      if (topic.partitions.some((p) => p.leader < 0))
        throw Object.assign(new Error(`event log: ${topic.name} has partitions without a leader`), { retriable: true });
    }
  }

  async publish(records: readonly OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.connect();
    await this.publishes.publish(records);
  }

  async consume(options: ConsumerOptions): Promise<Consumer> {
    await this.connect();
    const consumer = new KafkaGroupConsumer(this.kafka, options, {
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? CONSUMER_MAX_WAIT_MS,
      toRequests: (records) => this.toRequests(records),
      onStopped: (c) => this.consumers.delete(c),
      deleteGroup: (groupId) => this.admin.deleteGroups([groupId]).then(() => undefined),
      committedOffset: (groupId, topic, partition) =>
        this.committedOffsets(groupId, topic).then((offsets) => offsets[partition] ?? 0),
      onBatchFailed: (groupId, batch, error) =>
        this.options.onWarning?.('event log: a batch failed; it is delivered again', {
          groupId,
          topic: batch.topic,
          partition: batch.partition,
          offset: batch.records[0]?.offset,
          error: String(error),
        }),
    });
    this.consumers.add(consumer);
    await consumer.start();
    return consumer;
  }

  async read(
    topic: string,
    partition: number,
    fromOffset: number,
    onBatch: (records: IncomingRecord[]) => Promise<void>,
    untilOffset?: number,
  ): Promise<number> {
    const end = untilOffset ?? (await this.endOffsets(topic))[partition] ?? 0;
    if (fromOffset >= end) return fromOffset;
    const groupId = `read.${topic}.${partition}.${randomUUID()}`;
    const consumer = this.kafka.consumer({
      groupId,
      // A range read seeks once its first fetch may have left: a short wait lets the seek apply soon.
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? RANGE_READ_MAX_WAIT_MS,
      allowAutoTopicCreation: false,
    });
    try {
      return await readPartitionRange(consumer, {
        topic,
        partition,
        fromOffset,
        end,
        onBatch,
        partitionCount: await this.partitionCount(topic),
      });
    } finally {
      await consumer.disconnect();
      await this.admin.deleteGroups([groupId]).catch(() => undefined);
    }
  }

  async endOffsets(topic: string): Promise<number[]> {
    await this.connect();
    const offsets = this.offsets;
    if (!offsets) {
      const answer = await retryingRetriable(() => fetchTopicOffsets(this.admin, topic));
      return byPartition(answer.map((o) => ({ partition: o.partition, offset: Number(o.high) })));
    }
    // Asked after the call (a request not yet sent is joined), so a record acknowledged before it is counted.
    const asked = this.endsAsked ?? this.askEnds(offsets);
    asked.topics.add(topic);
    return (await asked.answer).get(topic)!;
  }

  /** One end-offsets request, sent once the current tick has added its topics. */
  private askEnds(offsets: KafkajsOffsets): { topics: Set<string>; answer: Promise<Map<string, number[]>> } {
    const asked = { topics: new Set<string>(), answer: Promise.resolve(new Map<string, number[]>()) };
    asked.answer = (async () => {
      await Promise.resolve();
      if (this.endsAsked === asked) this.endsAsked = undefined;
      const answer = await retryingRetriable(() => offsets.endOffsets([...asked.topics]));
      return new Map(
        [...answer].map(([topic, partitions]) => [
          topic,
          byPartition(partitions.map((p) => ({ partition: p.partition, offset: Number(p.offset) }))),
        ]),
      );
    })();
    this.endsAsked = asked;
    return asked;
  }

  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    await this.connect();
    const offsets = this.offsets;
    const partitions = offsets
      ? await retryingRetriable(() => offsets.committedOffsets(groupId, topic))
      : ((await retryingRetriable(() => this.admin.fetchOffsets({ groupId, topics: [topic] })))[0]?.partitions ?? []);
    return byPartition(partitions.map((p) => ({ partition: p.partition, offset: Math.max(0, Number(p.offset)) })));
  }

  async partitionCount(topic: string): Promise<number> {
    const known = this.partitionCounts.get(topic);
    if (known !== undefined) return known;
    await this.connect();
    const metadata = await this.admin.fetchTopicMetadata({ topics: [topic] });
    const count = metadata.topics[0]?.partitions.length ?? 0;
    if (count === 0) throw new Error(`event log: unknown topic ${topic}; create it from its definition first`);
    this.partitionCounts.set(topic, count);
    return count;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.consumers].map((c) => c.stop()));
      if (this.connected) {
        await this.producer.disconnect();
        await this.admin.disconnect();
        await this.offsets?.disconnect();
      }
    })();
    return this.closing;
  }

  private connect(): Promise<void> {
    this.connected ??= Promise.all([this.admin.connect(), this.producer.connect(), this.offsets?.connect()]).then(
      () => undefined,
    );
    return this.connected;
  }

  /** The produce requests that carry `records`, in order, each small enough for the broker (see MAX_REQUEST_BYTES). */
  private async toRequests(records: readonly OutgoingRecord[]): Promise<TopicMessages[][]> {
    const requests: TopicMessages[][] = [];
    for (const request of splitIntoRequests(records)) requests.push(await this.toTopicMessages(request));
    return requests;
  }

  private async toTopicMessages(records: readonly OutgoingRecord[]): Promise<TopicMessages[]> {
    const byTopic = new Map<string, Message[]>();
    for (const r of records) {
      const partition = r.partition ?? partitionForKey(r.key, await this.partitionCount(r.topic));
      let messages = byTopic.get(r.topic);
      if (!messages) byTopic.set(r.topic, (messages = []));
      messages.push({ key: r.key, value: r.value, partition, headers: r.headers });
    }
    return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
  }
}

export interface TopicMessages {
  topic: string;
  messages: Message[];
}

/**
 * kafkajs's admin retries only "unknown topic" and gives up at once on other retriable answers,
 * such as "not the leader for that partition" from a broker that is still taking a new topic's
 * leadership (seen in CI right after a test created its topics). Those pass within moments.
 */
async function retryingRetriable<T>(call: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts || (error as { retriable?: boolean }).retriable !== true) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * kafkajs's fetchTopicOffsets fails with a TypeError (`high.pop()` is undefined) when no broker
 * answered for the topic's partitions, as while their leaders are still being elected (seen in
 * CI): a passing state like the retriable answers above, so it is retried like them.
 */
async function fetchTopicOffsets(admin: Admin, topic: string): ReturnType<Admin['fetchTopicOffsets']> {
  try {
    return await admin.fetchTopicOffsets(topic);
  } catch (error) {
    if (error instanceof TypeError)
      throw Object.assign(new Error(`kafka: no offsets answered yet for ${topic} (${error.message})`), {
        retriable: true,
      });
    throw error;
  }
}

function byPartition(entries: { partition: number; offset: number }[]): number[] {
  const out: number[] = [];
  for (const e of entries) out[e.partition] = e.offset;
  return Array.from(out, (v) => v ?? 0);
}

export function toIncomingRecords(payload: Pick<EachBatchPayload, 'batch'>): IncomingRecord[] {
  const { batch } = payload;
  return batch.messages.map((m) => ({
    topic: batch.topic,
    partition: batch.partition,
    offset: Number(m.offset),
    key: m.key?.toString('utf8') ?? '',
    value: m.value?.toString('utf8') ?? '',
    headers: toHeaders(m.headers),
    timestamp: Number(m.timestamp),
  }));
}

function toHeaders(
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? String(value[0]) : String(value ?? '');
  }
  return out;
}

export function toIncomingBatch(records: IncomingRecord[], topic: string, partition: number): IncomingBatch {
  return { topic, partition, records, nextOffset: records[records.length - 1]!.offset + 1 };
}

interface RangeRead {
  topic: string;
  partition: number;
  fromOffset: number;
  end: number;
  partitionCount: number;
  onBatch: (records: IncomingRecord[]) => Promise<void>;
}

/**
 * kafkajs has no manual partition assignment, so a range read is a throw-away group that seeks
 * the one partition and pauses the others. Progress is tracked from batch offsets, transaction
 * markers included, so a range that ends on a commit marker still completes.
 */
async function readPartitionRange(consumer: KafkaConsumer, range: RangeRead): Promise<number> {
  let position = range.fromOffset;
  let finish: () => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const advance = (lastOffset: number): void => {
    position = Math.max(position, lastOffset + 1);
    if (position >= range.end) finish();
  };
  await consumer.connect();
  await consumer.subscribe({ topic: range.topic, fromBeginning: true });
  consumer.on(consumer.events.END_BATCH_PROCESS, (event) => {
    if (event.payload.partition === range.partition) advance(Number(event.payload.lastOffset));
  });
  consumer.on(consumer.events.CRASH, (event) => fail(event.payload.error));
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      if (batch.partition !== range.partition) return;
      const records = toIncomingRecords({ batch }).filter((r) => r.offset >= position && r.offset < range.end);
      if (records.length > 0) await range.onBatch(records);
      advance(Number(batch.lastOffset()));
    },
  });
  const others = Array.from({ length: range.partitionCount }, (_, p) => p).filter((p) => p !== range.partition);
  if (others.length > 0) consumer.pause([{ topic: range.topic, partitions: others }]);
  consumer.seek({ topic: range.topic, partition: range.partition, offset: String(range.fromOffset) });
  await done;
  return position;
}
