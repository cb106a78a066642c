import type { TopicDefinition } from '@exchange/contracts';
import type {
  Consumer,
  ConsumerOptions,
  EventLog,
  IncomingBatch,
  IncomingRecord,
  OutgoingRecord,
} from './event-log.port';

/**
 * Prefixes every topic and consumer group with a namespace, so several exchanges (or test runs)
 * can share one Kafka cluster without seeing each other. Services keep using the plain names:
 * records come back with the topic as they know it.
 */
export class NamespacedEventLog implements EventLog {
  constructor(
    private readonly inner: EventLog,
    private readonly namespace: string,
  ) {}

  createTopics(definitions: readonly TopicDefinition[]): Promise<void> {
    return this.inner.createTopics(definitions.map((d) => ({ ...d, name: this.wrap(d.name) })));
  }

  publish(records: readonly OutgoingRecord[]): Promise<void> {
    return this.inner.publish(records.map((r) => this.outgoing(r)));
  }

  consume(options: ConsumerOptions): Promise<Consumer> {
    return this.inner.consume({
      ...options,
      groupId: this.wrap(options.groupId),
      topics: options.topics.map((t) => this.wrap(t)),
      eachBatch: async (batch) => {
        const outcome = await options.eachBatch(this.unwrapBatch(batch));
        return outcome?.emit ? { emit: outcome.emit.map((r) => this.outgoing(r)) } : outcome;
      },
      hooks: options.hooks?.beforeCommit
        ? { beforeCommit: (batch) => options.hooks!.beforeCommit!(this.unwrapBatch(batch)) }
        : undefined,
    });
  }

  read(
    topic: string,
    partition: number,
    fromOffset: number,
    onBatch: (records: IncomingRecord[]) => Promise<void>,
    untilOffset?: number,
  ): Promise<number> {
    return this.inner.read(
      this.wrap(topic),
      partition,
      fromOffset,
      (records) => onBatch(records.map((r) => ({ ...r, topic }))),
      untilOffset,
    );
  }

  endOffsets(topic: string): Promise<number[]> {
    return this.inner.endOffsets(this.wrap(topic));
  }

  committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.inner.committedOffsets(this.wrap(groupId), this.wrap(topic));
  }

  partitionCount(topic: string): Promise<number> {
    return this.inner.partitionCount(this.wrap(topic));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private wrap(name: string): string {
    return `${this.namespace}.${name}`;
  }

  private outgoing(record: OutgoingRecord): OutgoingRecord {
    return { ...record, topic: this.wrap(record.topic) };
  }

  private unwrapBatch(batch: IncomingBatch): IncomingBatch {
    const topic = batch.topic.slice(this.namespace.length + 1);
    return { ...batch, topic, records: batch.records.map((r) => ({ ...r, topic })) };
  }
}
