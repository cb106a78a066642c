import type { TopicDefinition } from '@exchange/contracts';

/**
 * The event log: Kafka's model (topics of ordered partitions, keyed records, consumer groups with
 * committed offsets) behind one interface with two adapters, Kafka through kafkajs and an embedded
 * file-backed log. Services depend on this port only, never on an adapter.
 */

/** A record to append. Values are UTF-8 text (our messages are JSON). */
export interface OutgoingRecord {
  topic: string;
  /** Chooses the partition (murmur2, as Kafka's default partitioner) unless `partition` is set. */
  key: string;
  value: string;
  headers?: Record<string, string>;
  partition?: number;
  /**
   * The message `value` is the JSON of, as its producer built it; never stored nor sent. The
   * embedded log keeps it beside the record for this process's consumers, whose decodeOnce and
   * decodeRecord take it instead of parsing `value`: plain data that the topic's decoders give
   * back from `value` unchanged (checked under tests), which nobody mutates once it is handed over.
   */
  message?: unknown;
}

export interface IncomingRecord {
  topic: string;
  partition: number;
  /** Position in the partition; the offset to commit after it is offset + 1. */
  offset: number;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Append time, ms. */
  timestamp: number;
}

/** Consecutive records of one partition, delivered together. */
export interface IncomingBatch {
  topic: string;
  partition: number;
  records: IncomingRecord[];
  /** The offset after the last record of the batch: what a commit of this batch stores. */
  nextOffset: number;
  /**
   * Set when everything between the previous batch this consumer handed over for the partition
   * (committed) and this one's first record was transaction markers or aborted records (Kafka):
   * that batch's nextOffset. A handler whose state stands there continues without catching up.
   */
  fromOffset?: number;
}

export interface BatchOutcome {
  /**
   * Records decided from this batch. The adapter appends them and commits `nextOffset` as one
   * atomic step: either both happen or neither (consume-transform-produce exactly once).
   */
  emit?: OutgoingRecord[];
}

export interface ConsumerHooks {
  /**
   * Called after a batch's records were handed to the log and before the step is committed, for
   * instrumentation (latency, traces) and the crash tests that kill a process at this instant.
   */
  beforeCommit?(batch: IncomingBatch): void | Promise<void>;
}

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a partition without a committed offset starts: the beginning, or the end (default). */
  fromBeginning?: boolean;
  /** Upper bound of records per batch; by default a batch is what one fetch returned (Kafka) or up to 5000 records (embedded). */
  maxBatchSize?: number;
  /**
   * A group private to this process, whose position matters only while the process lives: a
   * gateway's replies, a read-model replica, a socket fan-out. It emits nothing. The embedded log
   * keeps its position in memory (no journal write, no fsync per batch); Kafka commits it as usual,
   * so a rebalance resumes where it was, and deletes the group when the consumer stops.
   */
  ephemeral?: boolean;
  /**
   * For a decider whose only effects are the records it returns and memory that dies with the
   * process (the ledger, the matching engine): the embedded log hands it records once written to
   * the journal, before the fsync that makes them durable, and counts its step committed once
   * written, so a chain of such steps (gateway → ledger → engine → ledger) shares one fsync instead
   * of waiting for one per hop. A crash cannot keep a step and lose what it was decided from: the
   * journal is one file in append order. Anything seen outside the process (a reply, a socket, a
   * database row) must come from a consumer without this flag, which sees durable records only.
   * Kafka hands every consumer replicated records only and ignores it.
   */
  readUnsynced?: boolean;
  eachBatch(batch: IncomingBatch): Promise<BatchOutcome | void>;
  hooks?: ConsumerHooks;
}

export interface Consumer {
  /** Stops after the batch in hand; its outcome is committed or discarded, never half-done. */
  stop(): Promise<void>;
}

export interface EventLog {
  /** Creates what is missing; existing topics are left as they are. */
  createTopics(definitions: readonly TopicDefinition[]): Promise<void>;
  /** Appends all records; resolves once they are durable (acks=all on Kafka, fsync when embedded). */
  publish(records: readonly OutgoingRecord[]): Promise<void>;
  consume(options: ConsumerOptions): Promise<Consumer>;
  /**
   * Reads a partition from `fromOffset` up to the end as of the call (or `untilOffset`), outside any
   * group: what a replay or a rebuild uses. Resolves with the offset after the last record read.
   */
  read(
    topic: string,
    partition: number,
    fromOffset: number,
    onBatch: (records: IncomingRecord[]) => Promise<void>,
    untilOffset?: number,
  ): Promise<number>;
  /** The offset after the last record of each partition (the high watermark), by partition. */
  endOffsets(topic: string): Promise<number[]>;
  /** The group's committed offsets of the topic, by partition (0 where none). */
  committedOffsets(groupId: string, topic: string): Promise<number[]>;
  partitionCount(topic: string): Promise<number>;
  close(): Promise<void>;
}
