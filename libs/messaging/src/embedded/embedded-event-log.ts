import { existsSync, mkdirSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
import { EmbeddedConsumer } from './embedded-consumer';
import { ConsumerGroups } from './consumer-groups';
import type { JournalEntry, StoredRecord } from './journal-entry';
import { encodeFrame, recoverJournal } from './journal-file';
import { type FsyncPolicy, JournalWriter } from './journal-writer';
import { LruCache } from './lru-cache';
import { decodeJournalEntry, encodeJournalEntry } from './record-codec';
import { type CachedValue, PartitionLog, type SegmentMeta, type SegmentSettings } from './partition-log';
import {
  applyCompaction,
  cleanPartition,
  cleanupPolicyOf,
  type CompactionState,
  compactionDue,
  filesOfPlan,
} from './segment-cleaner';
import { type CompactionPlan, planCompaction } from './segment-compaction';
import { compressSegment, removeSegmentFiles } from './segment-compression';
import {
  isWalFile,
  LEGACY_JOURNAL_FILE,
  type Manifest,
  readManifest,
  syncFolder,
  syncFolderAsync,
  walFileName,
  writeManifest,
} from './segment-manifest';
import { Signal } from './signal';

interface TopicState {
  definition: TopicDefinition;
  partitions: PartitionLog[];
  /** Per partition: the compacted range, so an unchanged partition is not rescanned. */
  cleaned: CompactionState[];
}

export interface EmbeddedEventLogOptions {
  /** Folder of the log: manifest.json, the write-ahead log, segments/<topic>-<partition>/. */
  dir: string;
  /** 'always': a publish or commit resolves after fdatasync (the default); 'never': the OS decides. */
  fsync?: FsyncPolicy;
  /** How long a sync may wait for in-process steps still appending (journal-writer.ts SYNC_SETTLE_MS). */
  syncSettleMs?: number;
  /** A segment is sealed and a new one started past this size, unless the topic sets segment.bytes. */
  segmentBytes?: number;
  /** One sparse-index entry per this many bytes of records. */
  indexIntervalBytes?: number;
  /** Bound of the decoded records and indexes held in memory for reads behind the tail. */
  cacheBytes?: number;
  /** A checkpoint (segments synced, manifest rewritten, write-ahead log restarted) past this size. */
  walBytes?: number;
  /** How often retention, compaction and the compression of sealed segments run (0: only through maintain()). */
  maintenanceIntervalMs?: number;
  /** Rewrite sealed, checkpointed segments as brotli blocks after each maintenance (default true). */
  compressSealed?: boolean;
  /**
   * Called at each step of a segment's compression: 'block' after each block written, 'written'
   * once the compressed files are synced, 'switched' once the manifest names them, 'deleted' once
   * the plain files are gone. The kill -9 tests stop the process there; nothing else needs it.
   */
  onCompressionStep?: (step: 'block' | 'written' | 'switched' | 'deleted', file: string) => void;
  /** The same for a compaction: its replacements' blocks and files written, then switched and the replaced files deleted. */
  onCompactionStep?: (step: 'block' | 'written' | 'switched' | 'deleted', file: string) => void;
  now?: () => number;
  onWarning?: (message: string, details: Record<string, unknown>) => void;
}

const MiB = 2 ** 20;
/**
 * A clean stop checkpoints only a journal larger than this: a start replays a short one in
 * moments, and a stop stays quick (the embedded default's shutdown races PostgreSQL's exit hook).
 */
const CLOSE_CHECKPOINT_BYTES = MiB;
const commitKey = (group: string, topic: string, partition: number): string =>
  `${group}\u0000${topic}\u0000${partition}`;
const partitionDir = (dir: string, topic: string, partition: number): string =>
  join(dir, 'segments', `${encodeURIComponent(topic)}-${partition}`);

/**
 * Kafka's semantics in one process: partitions by murmur2 of the key, order per partition, consumer
 * groups whose committed offsets survive a restart, replay from any offset, retention and
 * compaction per topic, and an atomic "append these records and commit this offset" step.
 *
 * Every step is one framed, checksummed entry of a write-ahead log (the atomic unit, group-committed
 * with one fdatasync); once written, its records are in the partitions (handed to consumers that read
 * unsynced records at once, to the others once durable) and go to per-partition segment files. A
 * checkpoint syncs the segments, rewrites the manifest (segments and committed offsets) and starts a
 * new write-ahead log, so opening reads the manifest, the active segments' indexes and the log's
 * short tail, never the history; older records are read from disk through a bounded cache.
 */
export class EmbeddedEventLog extends ConsumerGroups implements EventLog {
  private readonly topics = new Map<string, TopicState>();
  private readonly committed = new Map<string, number>();
  private readonly cache: LruCache<CachedValue>;
  private readonly settings: SegmentSettings;
  private readonly walBytes: number;
  private writer!: JournalWriter;
  /** Partitions appended to since their segment files were last written (flushPartitions). */
  private readonly unflushed = new Set<PartitionLog>();
  private manifest: Manifest;
  private checkpointQueued = false;
  /** The checkpoint the journal's size queued, until it ran: close() waits for it. */
  private queuedCheckpoint: Promise<void> = Promise.resolve();
  /** The last syncSegments() (a checkpoint's, or ahead of one): close() waits for it. */
  private segmentsSyncing: Promise<unknown> = Promise.resolve();
  /** Highest generation named so far (manifest, journal, compacted files): a new file never takes a used name. */
  private generation: number;
  private timer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;
  /** The compression of sealed segments in progress, if any: maintain() chains onto it, close() waits for it. */
  private compressing: Promise<void> = Promise.resolve();
  /** The last retention and compaction run (planned, then switched in a step): close() waits for it. */
  private cleaning: Promise<void> = Promise.resolve();
  /** Woken once a step is written, before it is durable: what consumers that read unsynced records wait on. */
  readonly written = new Signal();
  /** Woken on every durable append and commit, rebalance and stop (and wakes `written`'s waiters too). */
  readonly changed = new Signal(this.written);
  /**
   * Partitions holding records not durable yet, with the offset below which they are: consumers
   * that do not read unsynced records are handed records up to there only (Kafka's high watermark).
   */
  private readonly durableEnds = new Map<PartitionLog, number>();

  private constructor(
    private readonly options: EmbeddedEventLogOptions,
    manifest: Manifest,
  ) {
    super();
    this.manifest = manifest;
    this.generation = manifest.generation;
    this.cache = new LruCache(options.cacheBytes ?? 64 * MiB);
    this.settings = {
      segmentBytes: options.segmentBytes ?? 64 * MiB,
      indexIntervalBytes: options.indexIntervalBytes ?? 8192,
    };
    this.walBytes = options.walBytes ?? 16 * MiB;
  }

  static async open(options: EmbeddedEventLogOptions): Promise<EmbeddedEventLog> {
    mkdirSync(options.dir, { recursive: true });
    const stored = readManifest(options.dir);
    const legacy = !stored && existsSync(join(options.dir, LEGACY_JOURNAL_FILE));
    const manifest: Manifest = stored ?? {
      v: 1,
      generation: 1,
      wal: legacy ? LEGACY_JOURNAL_FILE : walFileName(1),
      topics: [],
      segments: {},
      commits: [],
    };
    if (!stored && !legacy) writeManifest(options.dir, manifest);
    const log = new EmbeddedEventLog(options, manifest);
    log.restore();
    const path = join(options.dir, manifest.wal);
    const recovered = recoverJournal<JournalEntry>(path, decodeJournalEntry, (entry) => log.apply(entry, false));
    log.flushPartitions();
    if (recovered.tornBytes > 0) {
      options.onWarning?.('event log: cut a torn frame at the end of the journal', {
        path,
        tornBytes: recovered.tornBytes,
      });
    }
    log.writer = await JournalWriter.open(
      path,
      options.fsync ?? 'always',
      () => log.flushPartitions(),
      options.syncSettleMs,
    );
    if (legacy || log.writer.bytes >= log.walBytes) await log.writer.exclusive(() => log.checkpoint([]));
    const every = options.maintenanceIntervalMs ?? 60_000;
    if (every > 0) {
      log.timer = setInterval(
        () =>
          void log
            .maintain()
            .catch((error: unknown) =>
              options.onWarning?.('event log: maintenance failed; it runs again later', { error: String(error) }),
            ),
        every,
      );
      log.timer.unref();
    }
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
    this.join(consumer);
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
    const log = this.partition(topic, partition);
    const end = Math.min(untilOffset ?? log.end, log.end);
    let offset = fromOffset;
    while (offset < end) {
      const batch = log.read(offset, Math.min(1000, end - offset)).filter((r) => r.offset < end);
      if (batch.length === 0) break;
      await onBatch(batch);
      offset = batch[batch.length - 1]!.offset + 1;
    }
    return Math.max(offset, fromOffset);
  }

  async endOffsets(topic: string): Promise<number[]> {
    return this.topicState(topic).partitions.map((p) => p.end);
  }

  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.topicState(topic).partitions.map((_, p) => this.committed.get(commitKey(groupId, topic, p)) ?? 0);
  }

  async partitionCount(topic: string): Promise<number> {
    return this.topicState(topic).definition.partitions;
  }

  /**
   * Retention and compaction now, then a checkpoint, then the compression of the sealed segments
   * that checkpoint made durable; also what the maintenance timer runs.
   */
  async maintain(): Promise<void> {
    await this.cleanAndCheckpoint();
    if (this.options.compressSealed === false) return;
    // A failed run (reported by the maintain() that ran it) must not stop the next one.
    const run = this.compressing.catch(() => undefined).then(() => this.compressSealed());
    this.compressing = run;
    await run;
  }

  private cleanAndCheckpoint(): Promise<void> {
    // One run at a time: a second plan made before the first is switched in would read the segments it replaces.
    const run = this.cleaning.catch(() => undefined).then(() => this.planAndClean());
    this.cleaning = run;
    return run;
  }

  private async planAndClean(): Promise<void> {
    const plans = await this.planCompactions();
    try {
      await this.syncSegments(true);
    } catch (error) {
      await this.dropPlans(plans);
      throw error;
    }
    // close() may have run while the segments synced: its writer takes no more tasks.
    if (this.closing) return this.dropPlans(plans);
    return this.writer.exclusive(async () => {
      const now = (this.options.now ?? Date.now)();
      const expired: string[] = [];
      const compacted: string[] = [];
      for (const state of this.topics.values()) {
        const policy = cleanupPolicyOf(state.definition.config);
        state.partitions.forEach((p, i) => {
          expired.push(...cleanPartition(p, policy, now).map((f) => join(p.dir, f)));
          const plan = plans.get(p);
          if (plan) compacted.push(...applyCompaction(p, plan, state.cleaned[i]!).map((f) => join(p.dir, f)));
        });
      }
      await this.checkpoint(expired);
      if (compacted.length === 0) return;
      this.options.onCompactionStep?.('switched', compacted[0]!);
      await Promise.all(compacted.map((file) => rm(file, { force: true })));
      await Promise.all([...new Set(compacted.map((file) => dirname(file)))].map(syncFolderAsync));
      this.options.onCompactionStep?.('deleted', compacted[0]!);
    });
  }

  /**
   * Each compacted partition's plan (segment-compaction.ts), made while appends and reads go on;
   * switched in by the step that follows. Stops when the log closes.
   */
  private async planCompactions(): Promise<Map<PartitionLog, CompactionPlan>> {
    const plans = new Map<PartitionLog, CompactionPlan>();
    try {
      for (const state of this.topics.values()) {
        if (!cleanupPolicyOf(state.definition.config).compact) continue;
        const { indexIntervalBytes } = this.settingsOf(state.definition);
        for (const [i, log] of state.partitions.entries()) {
          if (!compactionDue(log, state.cleaned[i]!)) continue;
          const plan = await planCompaction(log, {
            stopped: () => this.closing !== undefined,
            onBlock: () => this.options.onCompactionStep?.('block', log.dir),
            indexIntervalBytes,
            generation: ++this.generation,
          });
          if (!plan) return plans;
          plans.set(log, plan);
          for (const { replacement } of plan.segments)
            if (replacement) this.options.onCompactionStep?.('written', replacement.file);
        }
      }
      return plans;
    } catch (error) {
      await this.dropPlans(plans);
      throw error;
    }
  }

  private async dropPlans(plans: ReadonlyMap<PartitionLog, CompactionPlan>): Promise<void> {
    const files = [...plans].flatMap(([log, plan]) => filesOfPlan(plan).map((f) => join(log.dir, f)));
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      // A compression or a compaction's plan in progress stops at its next block (this.closing is set) and leaves its files out.
      await Promise.all([this.compressing.catch(() => undefined), this.cleaning.catch(() => undefined)]);
      await this.stopConsumers();
      await this.queuedCheckpoint;
      if (this.writer.bytes > CLOSE_CHECKPOINT_BYTES)
        await this.writer
          .exclusive(() => this.checkpoint([]))
          .catch((error: unknown) =>
            this.options.onWarning?.('event log: no checkpoint at close; the next start replays the journal', {
              error: String(error),
            }),
          );
      await this.writer.close();
      // The files stay open until no fsync is on them.
      await this.segmentsSyncing.catch(() => undefined);
      for (const state of this.topics.values()) for (const p of state.partitions) p.close();
    })();
    return this.closing;
  }

  // --- used by EmbeddedConsumer ---

  /** Records from `offset`, at most `max`, durable ones only unless `unsynced`; empty when the consumer is at the end. */
  slice(topic: string, partition: number, offset: number, max: number, unsynced: boolean): IncomingRecord[] {
    const log = this.partition(topic, partition);
    const durableEnd = unsynced ? undefined : this.durableEnds.get(log);
    if (durableEnd === undefined) return log.read(offset, max);
    return offset >= durableEnd ? [] : log.read(offset, Math.min(max, durableEnd - offset));
  }

  endOffset(topic: string, partition: number): number {
    return this.partition(topic, partition).end;
  }

  committedOffset(groupId: string, topic: string, partition: number): number | undefined {
    return this.committed.get(commitKey(groupId, topic, partition));
  }

  /** Waits until every step queued so far is applied, so committed offsets are final. */
  settled(): Promise<void> {
    return this.writer.idle();
  }

  /**
   * Appends the batch's outcome and its offset commit in one frame. A member that lost the
   * partition in a rebalance is fenced here, synchronously, as Kafka fences a zombie producer.
   * For a member that reads unsynced records the step counts once written: what it decides next
   * follows this step in the journal, so no crash can keep the later step and lose this one.
   */
  async commitStep(
    member: EmbeddedConsumer,
    generation: number,
    batch: IncomingBatch,
    emit: readonly OutgoingRecord[] | undefined,
    unsynced = false,
  ): Promise<boolean> {
    if (!this.owns(member, generation, batch)) return false;
    const entry: JournalEntry = { c: [{ g: member.groupId, t: batch.topic, p: batch.partition, o: batch.nextOffset }] };
    if (emit && emit.length > 0) entry.r = emit.map((r) => this.toStored(r));
    if (!unsynced) {
      await this.append(entry);
      return true;
    }
    await new Promise<void>((written, refused) => {
      // A sync that fails later fails the writer: every later step is refused, so the failure is not lost by ignoring it here.
      this.append(entry, written).catch(refused);
    });
    return true;
  }

  protected partitionsOf(topic: string): number {
    return this.topicState(topic).definition.partitions;
  }

  // --- internals ---

  private restore(): void {
    const segmentsDir = join(this.options.dir, 'segments');
    mkdirSync(segmentsDir, { recursive: true });
    for (const file of readdirSync(this.options.dir)) {
      if ((isWalFile(file) || file === LEGACY_JOURNAL_FILE) && file !== this.manifest.wal)
        unlinkSync(join(this.options.dir, file));
    }
    const known = new Set<string>();
    for (const definition of this.manifest.topics) {
      const partitions = Array.from({ length: definition.partitions }, (_, p) => {
        const dir = partitionDir(this.options.dir, definition.name, p);
        known.add(dir);
        const segments = this.manifest.segments[`${definition.name}/${p}`] ?? [];
        if (segments.length === 0)
          return PartitionLog.create(dir, definition.name, p, this.settingsOf(definition), this.cache);
        return PartitionLog.restore(dir, definition.name, p, segments, this.settingsOf(definition), this.cache);
      });
      this.topics.set(definition.name, { definition, partitions, cleaned: partitions.map(() => ({})) });
    }
    for (const dir of readdirSync(segmentsDir))
      if (!known.has(join(segmentsDir, dir))) rmSync(join(segmentsDir, dir), { recursive: true, force: true });
    for (const [g, t, p, o] of this.manifest.commits) this.committed.set(commitKey(g, t, p), o);
  }

  /**
   * Syncs every segment, names a new write-ahead log in a rewritten manifest, and moves to it: from
   * here on a restart replays only what follows. Runs exclusively, between journal writes.
   */
  private async checkpoint(obsolete: string[]): Promise<void> {
    this.checkpointQueued = false;
    await this.syncSegments(false);
    const previous = join(this.options.dir, this.manifest.wal);
    const generation = ++this.generation;
    const next: Manifest = {
      v: 1,
      generation,
      wal: walFileName(generation),
      topics: [...this.topics.values()].map((s) => s.definition),
      segments: Object.fromEntries(
        [...this.topics.values()].flatMap((s) =>
          s.partitions.map((p) => [`${p.topic}/${p.partition}`, p.segments.map((m) => ({ ...m }))]),
        ),
      ),
      commits: [...this.committed].map(([key, o]) => {
        const [g, t, p] = key.split('\u0000') as [string, string, string];
        return [g, t, Number(p), o];
      }),
    };
    await this.writer.rotate(join(this.options.dir, next.wal), () => writeManifest(this.options.dir, next));
    this.manifest = next;
    for (const file of [previous, ...obsolete]) rmSync(file, { force: true });
    // A deletion lost to a power loss would leave a file no manifest names: restore() removes those anyway.
    await Promise.all([...new Set(obsolete.map((file) => dirname(file)))].map(syncFolderAsync));
  }

  /**
   * Every partition's segment files made durable, on the threadpool (PartitionLog.sync). Ahead of
   * a checkpoint, one partition at a time: the journal's fdatasync shares the threadpool's four
   * threads, and an append waits for it, so the segments must not take them all. In the
   * checkpoint's step, which holds the appends anyway, all at once.
   */
  private async syncSegments(ahead: boolean): Promise<void> {
    const partitions = [...this.topics.values()].flatMap((s) => s.partitions);
    this.segmentsSyncing = ahead
      ? partitions.reduce((done, p) => done.then(() => p.sync()), Promise.resolve())
      : Promise.all(partitions.map((p) => p.sync()));
    await this.segmentsSyncing;
  }

  /**
   * Compresses, one at a time, each sealed segment the manifest lists plain, and switches the
   * manifest to its compressed file. The CPU is on the threadpool and appends go on meanwhile;
   * only the switch runs between journal writes. A kill -9 at any step leaves the manifest naming
   * one of the two files, whole and synced; restore() deletes the other.
   */
  private async compressSealed(): Promise<void> {
    for (const state of this.topics.values()) {
      for (const log of state.partitions) {
        const listed = this.manifest.segments[`${log.topic}/${log.partition}`] ?? [];
        for (const plain of listed.filter((s) => s.sealed && !s.codec && s.bytes > 0)) {
          if (this.closing) return;
          const current = log.segments.find((s) => s.file === plain.file);
          if (!current) continue;
          const compressed = await compressSegment(log.dir, current, log.indexOf(current), {
            stopped: () => this.closing !== undefined,
            onBlock: () => this.options.onCompressionStep?.('block', plain.file),
          });
          if (!compressed) return;
          this.options.onCompressionStep?.('written', compressed.file);
          await this.writer.exclusive(() => this.switchToCompressed(log, plain.file, compressed));
        }
      }
    }
  }

  /** Names `compressed` in the manifest in place of `plain` (one atomic rewrite), then deletes the plain files. */
  private async switchToCompressed(log: PartitionLog, plain: string, compressed: SegmentMeta): Promise<void> {
    const key = `${log.topic}/${log.partition}`;
    const listed = this.manifest.segments[key] ?? [];
    // Retention or compaction may have dropped the segment while it was being compressed.
    if (!listed.some((s) => s.file === plain) || !log.segments.some((s) => s.file === plain && s.sealed)) {
      await removeSegmentFiles(log.dir, compressed.file);
      return;
    }
    const next: Manifest = {
      ...this.manifest,
      segments: { ...this.manifest.segments, [key]: listed.map((s) => (s.file === plain ? { ...compressed } : s)) },
    };
    writeManifest(this.options.dir, next);
    this.manifest = next;
    log.replaceWithCompressed(plain, compressed);
    this.options.onCompressionStep?.('switched', compressed.file);
    await removeSegmentFiles(log.dir, plain);
    syncFolder(log.dir);
    this.options.onCompressionStep?.('deleted', plain);
  }

  private settingsOf(definition: TopicDefinition): SegmentSettings {
    const segmentBytes = Number(definition.config['segment.bytes'] ?? this.settings.segmentBytes);
    return { ...this.settings, segmentBytes };
  }

  private append(entry: JournalEntry, onWritten?: () => void): Promise<void> {
    const pending = this.options.fsync !== 'never';
    let ends: Map<PartitionLog, number> | undefined;
    return this.writer.append(encodeFrame(encodeJournalEntry(entry)), {
      onWritten: () => {
        ends = this.apply(entry, pending);
        onWritten?.();
      },
      onDurable: pending ? () => this.durable(ends) : undefined,
    });
  }

  /** Records of a step now durable: consumers of durable records only may be handed them. */
  private durable(ends: Map<PartitionLog, number> | undefined): void {
    for (const [log, end] of ends ?? []) {
      if (end >= log.end) this.durableEnds.delete(log);
      else this.durableEnds.set(log, end);
    }
    this.changed.notify();
  }

  /**
   * Applies a step: topics, records (readable at once by consumers of unsynced records; by the
   * others from `durable` on, when `pending`) and commits. Returns the ends the step left its partitions at.
   */
  private apply(entry: JournalEntry, pending: boolean): Map<PartitionLog, number> | undefined {
    let ends: Map<PartitionLog, number> | undefined;
    for (const definition of entry.d ?? []) {
      if (this.topics.has(definition.name)) continue;
      const partitions = Array.from({ length: definition.partitions }, (_, p) =>
        PartitionLog.create(
          partitionDir(this.options.dir, definition.name, p),
          definition.name,
          p,
          this.settingsOf(definition),
          this.cache,
        ),
      );
      this.topics.set(definition.name, { definition, partitions, cleaned: partitions.map(() => ({})) });
    }
    for (const r of entry.r ?? []) {
      const log = this.partition(r.t, r.p);
      if (pending && !this.durableEnds.has(log)) this.durableEnds.set(log, log.end);
      log.append({ k: r.k, v: r.v, h: r.h, ts: r.ts }, r.m);
      (ends ??= new Map()).set(log, log.end);
      this.unflushed.add(log);
    }
    for (const c of entry.c ?? []) this.committed.set(commitKey(c.g, c.t, c.p), c.o);
    if (this.writer && !this.checkpointQueued && this.writer.bytes >= this.walBytes) {
      this.checkpointQueued = true;
      // The segments' bytes go to disk first while appends go on; the checkpoint, which holds the
      // appends, then syncs only what was written since.
      this.queuedCheckpoint = this.syncSegments(true)
        .catch(() => undefined)
        .then(() => this.writer.exclusive(() => this.checkpoint([])))
        .catch((error: unknown) => {
          this.checkpointQueued = false;
          this.options.onWarning?.('event log: checkpoint failed; the journal keeps growing until one succeeds', {
            error: String(error),
          });
        });
    }
    if (pending) this.written.notify();
    else this.changed.notify();
    return ends;
  }

  /**
   * Writes what the steps applied since the last call appended to the segment files: once per
   * journal sync (group commit), not once per step, so a partition touched by many steps costs one
   * file write. The tail is served from memory; a read of the active segment's file before this
   * call (a consumer of unsynced records, its block evicted) writes what is pending first.
   */
  private flushPartitions(): void {
    for (const log of this.unflushed) log.flush();
    this.unflushed.clear();
  }

  private toStored(record: OutgoingRecord): StoredRecord {
    const count = this.topicState(record.topic).definition.partitions;
    const partition = record.partition ?? partitionForKey(record.key, count);
    if (!Number.isInteger(partition) || partition < 0 || partition >= count) {
      throw new Error(`event log: partition ${partition} does not exist in ${record.topic}`);
    }
    const stored: StoredRecord = {
      t: record.topic,
      p: partition,
      k: record.key,
      v: record.value,
      ts: (this.options.now ?? Date.now)(),
    };
    if (record.headers && Object.keys(record.headers).length > 0) stored.h = record.headers;
    if (record.message !== undefined) stored.m = record.message;
    return stored;
  }

  private topicState(topic: string): TopicState {
    const state = this.topics.get(topic);
    if (!state) throw new Error(`event log: unknown topic ${topic}; create it from its definition first`);
    return state;
  }

  private partition(topic: string, partition: number): PartitionLog {
    const log = this.topicState(topic).partitions[partition];
    if (!log) throw new Error(`event log: partition ${partition} does not exist in ${topic}`);
    return log;
  }
}
