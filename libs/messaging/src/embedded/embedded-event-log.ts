import { join } from 'node:path';
import type { TopicDefinition } from '@exchange/contracts';
import type { Consumer, ConsumerOptions, EventLog, IncomingBatch, IncomingRecord, OutgoingRecord } from '../event-log.port';
import { partitionForKey } from '../partitioning/murmur2-partitioner';
import { EmbeddedConsumer } from './embedded-consumer';
import { encodeFrame, type FsyncPolicy, JournalWriter, recoverJournal } from './journal-file';
import { Signal } from './signal';

/** One frame of the journal: topic definitions, appended records and offset commits, all optional. */
interface JournalEntry {
  d?: TopicDefinition[];
  r?: StoredRecord[];
  c?: StoredCommit[];
}
interface StoredRecord {
  t: string;
  p: number;
  k: string;
  v: string;
  h?: Record<string, string>;
  ts: number;
}
interface StoredCommit {
  g: string;
  t: string;
  p: number;
  o: number;
}

interface TopicState {
  definition: TopicDefinition;
  partitions: IncomingRecord[][];
}

interface GroupState {
  members: EmbeddedConsumer[];
  generation: number;
  owners: Map<string, EmbeddedConsumer>;
}

export interface EmbeddedEventLogOptions {
  /** Folder of the journal file. */
  dir: string;
  /** 'always': a publish or commit resolves after fdatasync (the default); 'never': the OS decides. */
  fsync?: FsyncPolicy;
  now?: () => number;
  onWarning?: (message: string, details: Record<string, unknown>) => void;
}

const partitionKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;
const commitKey = (group: string, topic: string, partition: number): string => `${group}\u0000${topic}\u0000${partition}`;

/**
 * Kafka's semantics in one process, on one journal file: partitions by murmur2 of the key, order
 * per partition, consumer groups whose committed offsets survive a restart, replay from any
 * offset, and an atomic "append these records and commit this offset" step. Everything is held in
 * memory and rebuilt from the journal at open, which suits the single-machine default.
 */
export class EmbeddedEventLog implements EventLog {
  private readonly topics = new Map<string, TopicState>();
  private readonly committed = new Map<string, number>();
  private readonly groups = new Map<string, GroupState>();
  private readonly consumers = new Set<EmbeddedConsumer>();
  private closing: Promise<void> | undefined;
  /** Woken on every append, commit, rebalance and stop. */
  readonly changed = new Signal();

  private constructor(
    private readonly writer: JournalWriter,
    private readonly now: () => number,
  ) {}

  static async open(options: EmbeddedEventLogOptions): Promise<EmbeddedEventLog> {
    const path = join(options.dir, 'journal.log');
    const recovered = recoverJournal<JournalEntry>(path);
    if (recovered.tornBytes > 0) {
      options.onWarning?.('event log: cut a torn frame at the end of the journal', { path, tornBytes: recovered.tornBytes });
    }
    const log = new EmbeddedEventLog(await JournalWriter.open(path, options.fsync ?? 'always'), options.now ?? Date.now);
    for (const entry of recovered.entries) log.apply(entry);
    return log;
  }

  async createTopics(definitions: readonly TopicDefinition[]): Promise<void> {
    const fresh = definitions.filter((d) => !this.topics.has(d.name));
    if (fresh.length > 0) await this.append({ d: fresh });
  }

  async publish(records: readonly OutgoingRecord[]): Promise<void> {
    if (records.length > 0) await this.append({ r: records.map((r) => this.toStored(r)) });
  }

  async consume(options: ConsumerOptions): Promise<Consumer> {
    for (const topic of options.topics) this.topicState(topic);
    const consumer = new EmbeddedConsumer(this, options);
    this.consumers.add(consumer);
    this.joinGroup(consumer);
    consumer.start();
    return consumer;
  }

  async read(topic: string, partition: number, fromOffset: number, onBatch: (records: IncomingRecord[]) => Promise<void>, untilOffset?: number): Promise<number> {
    const records = this.partition(topic, partition);
    const end = Math.min(untilOffset ?? records.length, records.length);
    let offset = fromOffset;
    while (offset < end) {
      const batch = records.slice(offset, Math.min(offset + 1000, end));
      await onBatch(batch);
      offset += batch.length;
    }
    return Math.max(offset, fromOffset);
  }

  async endOffsets(topic: string): Promise<number[]> {
    return this.topicState(topic).partitions.map((p) => p.length);
  }

  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.topicState(topic).partitions.map((_, p) => this.committed.get(commitKey(groupId, topic, p)) ?? 0);
  }

  async partitionCount(topic: string): Promise<number> {
    return this.topicState(topic).definition.partitions;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.consumers].map((c) => c.stop()));
      await this.writer.close();
    })();
    return this.closing;
  }

  // --- used by EmbeddedConsumer ---

  /** Records from `offset`, at most `max`; empty when the consumer is at the end. */
  slice(topic: string, partition: number, offset: number, max: number): IncomingRecord[] {
    return this.partition(topic, partition).slice(offset, offset + max);
  }

  endOffset(topic: string, partition: number): number {
    return this.partition(topic, partition).length;
  }

  committedOffset(groupId: string, topic: string, partition: number): number | undefined {
    return this.committed.get(commitKey(groupId, topic, partition));
  }

  /** The partitions this member owns in its group's current generation. */
  assignmentOf(member: EmbeddedConsumer): { generation: number; partitions: { topic: string; partition: number }[] } {
    const group = this.groups.get(member.groupId);
    const partitions: { topic: string; partition: number }[] = [];
    if (!group) return { generation: -1, partitions };
    for (const topic of member.topics) {
      const state = this.topicState(topic);
      for (let p = 0; p < state.definition.partitions; p++) {
        if (group.owners.get(partitionKey(topic, p)) === member) partitions.push({ topic, partition: p });
      }
    }
    return { generation: group.generation, partitions };
  }

  /** Waits until every step queued so far is applied, so committed offsets are final. */
  settled(): Promise<void> {
    return this.writer.idle();
  }

  /**
   * Appends the batch's outcome and its offset commit in one frame. A member that lost the
   * partition in a rebalance is fenced here, synchronously, as Kafka fences a zombie producer.
   */
  async commitStep(member: EmbeddedConsumer, generation: number, batch: IncomingBatch, emit: readonly OutgoingRecord[] | undefined): Promise<boolean> {
    if (!this.owns(member, generation, batch)) return false;
    const entry: JournalEntry = { c: [{ g: member.groupId, t: batch.topic, p: batch.partition, o: batch.nextOffset }] };
    if (emit && emit.length > 0) entry.r = emit.map((r) => this.toStored(r));
    await this.append(entry);
    return true;
  }

  /** Whether `member` still owns the batch's partition in `generation`: an ephemeral group's "commit". */
  owns(member: EmbeddedConsumer, generation: number, batch: IncomingBatch, emit?: readonly OutgoingRecord[]): boolean {
    if (emit && emit.length > 0) throw new Error(`event log: the ephemeral group ${member.groupId} cannot emit records`);
    const group = this.groups.get(member.groupId);
    return group !== undefined && group.generation === generation && group.owners.get(partitionKey(batch.topic, batch.partition)) === member;
  }

  leaveGroup(member: EmbeddedConsumer): void {
    this.consumers.delete(member);
    const group = this.groups.get(member.groupId);
    if (!group) return;
    group.members = group.members.filter((m) => m !== member);
    this.rebalance(group);
  }

  // --- internals ---

  private joinGroup(member: EmbeddedConsumer): void {
    let group = this.groups.get(member.groupId);
    if (!group) {
      group = { members: [], generation: 0, owners: new Map() };
      this.groups.set(member.groupId, group);
    }
    group.members.push(member);
    this.rebalance(group);
  }

  /** Round-robin of each topic's partitions over the members subscribed to it, in join order. */
  private rebalance(group: GroupState): void {
    group.generation += 1;
    group.owners.clear();
    const topics = new Set(group.members.flatMap((m) => m.topics));
    for (const topic of topics) {
      const members = group.members.filter((m) => m.topics.includes(topic));
      const count = this.topicState(topic).definition.partitions;
      for (let p = 0; p < count && members.length > 0; p++) group.owners.set(partitionKey(topic, p), members[p % members.length]!);
    }
    this.changed.notify();
  }

  private append(entry: JournalEntry): Promise<void> {
    return this.writer.append(encodeFrame(entry), () => this.apply(entry));
  }

  private apply(entry: JournalEntry): void {
    for (const definition of entry.d ?? []) {
      if (!this.topics.has(definition.name)) {
        this.topics.set(definition.name, { definition, partitions: Array.from({ length: definition.partitions }, () => []) });
      }
    }
    for (const r of entry.r ?? []) {
      const records = this.partition(r.t, r.p);
      records.push({ topic: r.t, partition: r.p, offset: records.length, key: r.k, value: r.v, headers: r.h ?? {}, timestamp: r.ts });
    }
    for (const c of entry.c ?? []) this.committed.set(commitKey(c.g, c.t, c.p), c.o);
    this.changed.notify();
  }

  private toStored(record: OutgoingRecord): StoredRecord {
    const count = this.topicState(record.topic).definition.partitions;
    const partition = record.partition ?? partitionForKey(record.key, count);
    if (!Number.isInteger(partition) || partition < 0 || partition >= count) {
      throw new Error(`event log: partition ${partition} does not exist in ${record.topic}`);
    }
    const stored: StoredRecord = { t: record.topic, p: partition, k: record.key, v: record.value, ts: this.now() };
    if (record.headers && Object.keys(record.headers).length > 0) stored.h = record.headers;
    return stored;
  }

  private topicState(topic: string): TopicState {
    const state = this.topics.get(topic);
    if (!state) throw new Error(`event log: unknown topic ${topic}; create it from its definition first`);
    return state;
  }

  private partition(topic: string, partition: number): IncomingRecord[] {
    const records = this.topicState(topic).partitions[partition];
    if (!records) throw new Error(`event log: partition ${partition} does not exist in ${topic}`);
    return records;
  }
}
