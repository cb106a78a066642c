import type { TopicDefinition } from '@exchange/contracts';
import type { Metrics } from '@exchange/platform';
import type { Counter, Histogram } from 'prom-client';
import type { Consumer, ConsumerOptions, EventLog, IncomingRecord, OutgoingRecord } from '../event-log.port';

/**
 * The event log with its Prometheus metrics: records consumed and batch handling time per group
 * and topic (a group's rate is the service's operations/s: the matching engine's group counts
 * engine operations), records published per topic, and at each scrape the lag of every group
 * this process consumes, per partition: the topic's end offset minus the group's position.
 * Position is the later of what this process consumed last and the group's committed offset; a
 * partition with neither (a group reading from the end that has seen nothing yet) reports no lag.
 */
export class MeteredEventLog implements EventLog {
  private readonly consumed: Counter<'group' | 'topic'>;
  private readonly published: Counter<'topic'>;
  private readonly batchSeconds: Histogram<'group' | 'topic'>;
  /** group → topic → partition → next offset to consume. */
  private readonly positions = new Map<string, Map<string, Map<number, number>>>();

  constructor(
    private readonly inner: EventLog,
    metrics: Metrics,
  ) {
    this.consumed = metrics.counter(
      'event_log_consumed_records_total',
      'Records handled by consumer groups of this process',
      ['group', 'topic'],
    );
    this.published = metrics.counter(
      'event_log_published_records_total',
      'Records published by this process (atomic consume-and-emit steps excluded)',
      ['topic'],
    );
    this.batchSeconds = metrics.histogram(
      'event_log_batch_seconds',
      'Time to handle and commit one consumed batch',
      ['group', 'topic'],
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    );
    metrics.gauge(
      'event_log_consumer_lag',
      'Records between a group position and the end of the partition',
      ['group', 'topic', 'partition'],
      async (gauge) => {
        gauge.reset();
        for (const lag of await this.lags())
          gauge.set({ group: lag.group, topic: lag.topic, partition: String(lag.partition) }, lag.lag);
      },
    );
  }

  /** Current lag of every group this process consumes, by partition. */
  async lags(): Promise<{ group: string; topic: string; partition: number; lag: number }[]> {
    const lags: { group: string; topic: string; partition: number; lag: number }[] = [];
    for (const [group, topics] of this.positions) {
      for (const [topic, positions] of topics) {
        const [ends, committed] = await Promise.all([
          this.inner.endOffsets(topic),
          this.inner.committedOffsets(group, topic),
        ]);
        ends.forEach((end, partition) => {
          // The later of the two: a partition handed to another replica in a rebalance leaves this
          // process's position behind, while the group's commits move on.
          const position = Math.max(positions.get(partition) ?? 0, committed[partition] ?? 0) || undefined;
          if (position !== undefined) lags.push({ group, topic, partition, lag: Math.max(0, end - position) });
        });
      }
    }
    return lags;
  }

  createTopics(definitions: readonly TopicDefinition[]): Promise<void> {
    return this.inner.createTopics(definitions);
  }

  async publish(records: readonly OutgoingRecord[]): Promise<void> {
    await this.inner.publish(records);
    for (const r of records) this.published.inc({ topic: r.topic });
  }

  consume(options: ConsumerOptions): Promise<Consumer> {
    const byTopic = this.positions.get(options.groupId) ?? new Map<string, Map<number, number>>();
    this.positions.set(options.groupId, byTopic);
    for (const topic of options.topics) if (!byTopic.has(topic)) byTopic.set(topic, new Map());
    return this.inner.consume({
      ...options,
      eachBatch: async (batch) => {
        const labels = { group: options.groupId, topic: batch.topic };
        const stop = this.batchSeconds.startTimer(labels);
        const outcome = await options.eachBatch(batch);
        stop();
        this.consumed.inc(labels, batch.records.length);
        byTopic.get(batch.topic)?.set(batch.partition, batch.nextOffset);
        return outcome;
      },
    });
  }

  read(
    topic: string,
    partition: number,
    fromOffset: number,
    onBatch: (records: IncomingRecord[]) => Promise<void>,
    untilOffset?: number,
  ): Promise<number> {
    return this.inner.read(topic, partition, fromOffset, onBatch, untilOffset);
  }

  endOffsets(topic: string): Promise<number[]> {
    return this.inner.endOffsets(topic);
  }

  committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.inner.committedOffsets(groupId, topic);
  }

  partitionCount(topic: string): Promise<number> {
    return this.inner.partitionCount(topic);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
