import type { Consumer as KafkaConsumer, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import type { Consumer, ConsumerOptions, IncomingBatch, OutgoingRecord } from '../event-log.port';
import { type TopicMessages, toIncomingBatch, toIncomingRecords } from './kafka-event-log';

export interface KafkaGroupConsumerSettings {
  maxWaitTimeInMs: number;
  /** The produce requests carrying `records`, in order, each small enough for the broker. */
  toRequests(records: readonly OutgoingRecord[]): Promise<TopicMessages[][]>;
  onStopped(consumer: KafkaGroupConsumer): void;
  /** Removes a stopped ephemeral group from the cluster. */
  deleteGroup(groupId: string): Promise<void>;
  /** A batch's handling or commit failed; it is retried. */
  onBatchFailed(groupId: string, batch: IncomingBatch, error: unknown): void;
  /** The group's committed offset of one partition, as the broker has it. */
  committedOffset(groupId: string, topic: string, partition: number): Promise<number>;
}

/** A transaction's commit was sent but not confirmed: it may have gone through. */
class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super(`event log: a step's commit was not confirmed (${String(cause)})`, { cause });
  }
}

const RETRY_BACKOFF_MS = [100, 300, 1000, 3000];

/**
 * A consumer-group member on Kafka. Each batch's outcome is committed in one Kafka transaction
 * (records + offsets) by the transactional producer of its input partition; a batch with nothing
 * to emit commits its offset directly. Records are read with read_committed isolation, so aborted
 * steps of a crashed process are never seen downstream.
 */
export class KafkaGroupConsumer implements Consumer {
  private readonly consumer: KafkaConsumer;
  private readonly producers = new Map<string, Promise<Producer>>();
  private stopping: Promise<void> | undefined;
  /** Consecutive failed batches per `topic:partition`: each partition backs off on its own. */
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /**
   * Per `topic:partition`: the nextOffset of the last batch this member handed over and committed,
   * and how far past it only markers or aborted records were seen since (see commitPastMarkers).
   */
  private readonly spans = new Map<string, { delivered: number; scanned: number }>();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: ConsumerOptions,
    private readonly settings: KafkaGroupConsumerSettings,
  ) {
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: settings.maxWaitTimeInMs,
      // A member killed with SIGKILL holds its partitions until its session expires: keep that short.
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    for (const topic of this.options.topics)
      await this.consumer.subscribe({ topic, fromBeginning: this.options.fromBeginning ?? false });
    if (!this.options.ephemeral)
      this.consumer.on(this.consumer.events.END_BATCH_PROCESS, (event) => void this.commitPastMarkers(event.payload));
    const positioned = this.options.fromBeginning ? undefined : this.firstFetch();
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.onBatch(payload),
    });
    await positioned;
  }

  /**
   * kafkajs's run() returns once the member has its partitions, but a group without committed
   * offsets resolves "latest" only in its first fetch: a record published in between would be
   * skipped (a gateway's reply consumer would miss the reply to the first command it sends). The
   * first fetch has resolved every assigned partition's offset, so a consumer from the end is
   * handed back only once it stands there. A member given no partitions never fetches and has
   * nothing to stand at; a consumer stopped meanwhile is handed back as it is; after a retriable
   * crash kafkajs restarts the consumer, whose first fetch is then awaited.
   */
  private firstFetch(): Promise<void> {
    const { FETCH, GROUP_JOIN, STOP, CRASH } = this.consumer.events;
    return new Promise((resolve, reject) => {
      const stopListening = [
        this.consumer.on(FETCH, () => settle(resolve)),
        this.consumer.on(GROUP_JOIN, (event) => {
          if (Object.values(event.payload.memberAssignment).every((partitions) => partitions.length === 0))
            settle(resolve);
        }),
        this.consumer.on(STOP, () => settle(resolve)),
        this.consumer.on(CRASH, (event) => {
          if (!event.payload.restart) settle(() => reject(event.payload.error));
        }),
      ];
      const settle = (then: () => void) => {
        for (const stop of stopListening) stop();
        then();
      };
    });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.retryTimers) clearTimeout(timer);
      this.retryTimers.clear();
      await this.consumer.disconnect();
      const producers = await Promise.all(this.producers.values());
      await Promise.all(producers.map((p) => p.disconnect()));
      // Best effort: a group still being left by the coordinator is refused, and Kafka expires its offsets anyway.
      if (this.options.ephemeral) await this.settings.deleteGroup(this.options.groupId).catch(() => undefined);
      this.settings.onStopped(this);
    })();
    return this.stopping;
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const all = toIncomingRecords(payload);
    const key = `${batch.topic}:${batch.partition}`;
    // Only markers (or aborted records) between the last batch handed over and this fetch: it continues that batch.
    const span = this.spans.get(key);
    const fromOffset = span && span.scanned === Number(batch.firstOffset()) ? span.delivered : undefined;
    // Kafka's fetch already sizes batches (maxBytesPerPartition); split only when asked to.
    const size = this.options.maxBatchSize ?? all.length;
    // The fetch may end on commit markers after its last record: the last slice's commit steps past them too.
    const pastMarkers = Number(batch.lastOffset()) + 1;
    for (let start = 0; start < all.length; start += size) {
      if (!isRunning() || isStale()) return;
      const slice = toIncomingBatch(all.slice(start, start + size), batch.topic, batch.partition);
      if (start === 0 && fromOffset !== undefined) slice.fromOffset = fromOffset;
      const through = start + size >= all.length ? Math.max(pastMarkers, slice.nextOffset) : slice.nextOffset;
      if (!(await this.handleUntilCommitted(slice, through, payload))) return;
      this.spans.set(key, { delivered: slice.nextOffset, scanned: through });
      resolveOffset(String(through - 1));
      await heartbeat();
    }
  }

  /**
   * Hands the batch over and commits its outcome. When that fails (a broker call timing out, a
   * database restarting) the batch is not skipped: its partition alone is paused for a back-off
   * and, its offset unresolved, fetched again from the same record on resume. The other
   * partitions keep flowing meanwhile (kafkajs hands partitions over one at a time, so waiting in
   * here would hold them all). Throwing instead would let kafkajs tear the member down, and it
   * may not come back (seen in CI: an engine stopped consuming after one failed read). False
   * when the batch was not committed: the partition is paused, or no longer ours.
   */
  private async handleUntilCommitted(
    slice: IncomingBatch,
    through: number,
    { isRunning, isStale, pause }: EachBatchPayload,
  ): Promise<boolean> {
    const key = `${slice.topic}:${slice.partition}`;
    try {
      const outcome = await this.options.eachBatch(slice);
      await this.commit(slice, through, outcome?.emit ?? []);
      this.failures.delete(key);
      return true;
    } catch (error) {
      if (!isRunning() || isStale()) return false;
      if (error instanceof CommitOutcomeUnknown && (await this.wentThrough(slice, through))) {
        this.failures.delete(key);
        return true;
      }
      this.settings.onBatchFailed(this.options.groupId, slice, error);
      const failures = this.failures.get(key) ?? 0;
      this.failures.set(key, failures + 1);
      const resume = pause();
      const timer = setTimeout(
        () => {
          this.retryTimers.delete(timer);
          if (!this.stopping) resume();
        },
        RETRY_BACKOFF_MS[Math.min(failures, RETRY_BACKOFF_MS.length - 1)],
      );
      this.retryTimers.add(timer);
      return false;
    }
  }

  /** Commits the batch's outcome and the group's offset `through` (its nextOffset, or past the markers after it). */
  private async commit(batch: IncomingBatch, through: number, emit: readonly OutgoingRecord[]): Promise<void> {
    const offsets = {
      topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: String(through) }] }],
    };
    if (emit.length > 0 && this.options.ephemeral)
      throw new Error(`event log: the ephemeral group ${this.options.groupId} cannot emit records`);
    if (emit.length === 0) {
      await this.options.hooks?.beforeCommit?.(batch);
      await this.consumer.commitOffsets(offsets.topics[0]!.partitions.map((p) => ({ topic: batch.topic, ...p })));
      return;
    }
    const producer = await this.transactionalProducer(batch.topic, batch.partition);
    const transaction = await producer.transaction();
    let committing = false;
    try {
      // Several requests when the step is large: one transaction still commits them all or none.
      for (const request of await this.settings.toRequests(emit))
        await transaction.sendBatch({ acks: -1, topicMessages: request });
      await transaction.sendOffsets({ consumerGroupId: this.options.groupId, ...offsets });
      await this.options.hooks?.beforeCommit?.(batch);
      committing = true;
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => this.dropTransactionalProducer(batch.topic, batch.partition));
      throw committing ? new CommitOutcomeUnknown(error) : error;
    }
  }

  /**
   * Whether a step whose commit was not confirmed went through after all (its answer lost, or the
   * coordinator moving while it completed). Delivering it again would emit its records twice. The
   * partition's transactional producer is made anew first: its InitProducerId has the coordinator
   * finish the old transaction (committed if its EndTxn arrived, aborted if not), so the group's
   * offset read after it is final. False when that cannot be told: the batch is then retried, and
   * is refused or applied against an offset that the coordinator has settled.
   */
  private async wentThrough(batch: IncomingBatch, through: number): Promise<boolean> {
    try {
      this.dropTransactionalProducer(batch.topic, batch.partition);
      await this.transactionalProducer(batch.topic, batch.partition);
      const committed = await this.settings.committedOffset(this.options.groupId, batch.topic, batch.partition);
      return committed >= through;
    } catch {
      return false;
    }
  }

  /**
   * A transaction that could not be aborted leaves kafkajs's producer in a state no next
   * transaction can begin from: a failed commit stays COMMITTING (kafkajs aborts only while
   * TRANSACTING), and an abort refused by the coordinator stays ABORTING. Every later step of the
   * partition would fail the same way, so the producer is replaced; the new one's InitProducerId
   * (same transactional id) has the coordinator finish the old transaction first, aborting it
   * unless its commit was already under way, and fences the old producer.
   */
  private dropTransactionalProducer(topic: string, partition: number): void {
    const transactionalId = this.transactionalId(topic, partition);
    const producer = this.producers.get(transactionalId);
    this.producers.delete(transactionalId);
    void producer?.then((p) => p.disconnect()).catch(() => undefined);
  }

  /**
   * Transaction markers (and aborted records) are never handed to eachBatch. Without committing
   * past them the group's committed offset would stop one short of the end after every
   * transactional write, and nothing downstream could tell "consumed everything" from "one
   * behind" (a read waiting for a projection to pass the end would wait forever). Nothing in such
   * a stretch is to be handled, so committing past it is safe; it is done only right after what
   * this member handed over or skipped before (`spans`), and the next batch then names, as its
   * `fromOffset`, where the last one handed over ended, so a handler tracking its position knows
   * it continues from there. Called for a fetch of markers only (batchSize 0, from kafkajs's
   * END_BATCH_PROCESS). The markers a fetch of records ends on are committed by the commit of its
   * last slice instead (onBatch): one OffsetCommit (or TxnOffsetCommit) per step, not two.
   */
  private async commitPastMarkers(stretch: {
    topic: string;
    partition: number;
    batchSize?: number;
    firstOffset: string | null;
    lastOffset: string;
  }): Promise<void> {
    if ((stretch.batchSize ?? 0) > 0 || this.stopping || this.options.ephemeral) return;
    const key = `${stretch.topic}:${stretch.partition}`;
    const span = this.spans.get(key);
    if (!span || span.scanned !== Number(stretch.firstOffset)) return;
    span.scanned = Number(stretch.lastOffset) + 1;
    await this.consumer
      .commitOffsets([{ topic: stretch.topic, partition: stretch.partition, offset: String(span.scanned) }])
      .catch(() => undefined);
  }

  /** One per input partition: a new owner's init fences the old one's unfinished transaction. */
  private transactionalProducer(topic: string, partition: number): Promise<Producer> {
    const transactionalId = this.transactionalId(topic, partition);
    let producer = this.producers.get(transactionalId);
    if (!producer) {
      producer = (async () => {
        const p = this.kafka.producer({
          transactionalId,
          idempotent: true,
          maxInFlightRequests: 1,
          allowAutoTopicCreation: false,
        });
        await p.connect();
        return p;
      })();
      this.producers.set(transactionalId, producer);
    }
    return producer;
  }

  private transactionalId(topic: string, partition: number): string {
    return `${this.options.groupId}.${topic}.${partition}`;
  }
}
