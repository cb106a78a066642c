import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type OrderEvent, Topics } from '@exchange/contracts';
import type { Consumer, EventLog, IncomingBatch, IncomingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, Readiness } from '@exchange/platform';
import { type MarketChange, MarketFold } from '../domain';
import { MarketStartState } from './market-start-state';
import { parseOrderEvent } from './order-event.parser';

const topic = Topics.orderEvents.name;
/** How long the app's start waits for the catch-up before it listens anyway. */
const START_WAIT_MS = 5000;

export type ChangeListener = (changes: MarketChange[]) => void;
/** Told of every folded event of a partition with what it changed, changes or not (a clock tick moves event time). */
export type FoldListener = (partition: number, changes: readonly MarketChange[]) => void;

/**
 * This replica's read models: every replica folds all of order.events on its own and serves
 * from memory. It starts from the newest stored cut (books, history, offsets), reads each
 * partition from there up to the end offsets it saw at start, and is ready once it got there.
 * Live records come from a consumer group of its own (nothing is shared between replicas); a
 * first batch that starts past what was folded has the gap read with `EventLog.read`, and
 * records below it are skipped, so the start and the live tail meet exactly, whatever offset
 * the group joined at.
 */
@Injectable()
export class MarketReader implements OnApplicationBootstrap, OnApplicationShutdown {
  private positions: number[] = [];
  private startOffsets: number[] = [];
  private readonly chains = new Map<number, Promise<void>>();
  /** Partitions whose live tail has begun: from then on the group delivers every record in order. */
  private readonly live = new Set<number>();
  private readonly listeners: ChangeListener[] = [];
  private readonly foldListeners: FoldListener[] = [];
  private joining: Promise<Consumer> | undefined;
  private ready = false;
  private markReady: () => void = () => undefined;
  /** Resolves once the replica has caught up (the first moment its answers are served). */
  readonly caughtUp = new Promise<void>((resolve) => (this.markReady = resolve));
  private stopped = false;

  constructor(
    readonly fold: MarketFold,
    private readonly startState: MarketStartState,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    readiness.register('market-data: caught up', () => this.ready);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** The next order.events offset to fold, per partition: how far this replica has got. */
  get offsets(): readonly number[] {
    return this.positions;
  }

  /** Where the stored cut let this replica start reading, per partition (0: from the beginning). */
  get startedFrom(): readonly number[] {
    return this.startOffsets;
  }

  /** Called with what each folded batch changed, once the replica is ready. */
  onChanges(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Called after each folded event once the replica is ready. */
  onFolded(listener: FoldListener): void {
    this.foldListeners.push(listener);
  }

  /**
   * Waits for the catch-up up to START_WAIT_MS, so a replica with little to read is ready when it
   * starts listening; a longer catch-up goes on in the background while the app listens (liveness)
   * and the readiness check stays false until it is done.
   */
  async onApplicationBootstrap(): Promise<void> {
    const started = this.start().catch((error: unknown) =>
      this.logger.error({ err: error }, 'market-data: start failed'),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([started, new Promise((resolve) => (timer = setTimeout(resolve, START_WAIT_MS)))]);
    clearTimeout(timer);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    const consumer = await this.joining?.catch(() => undefined);
    await consumer?.stop();
  }

  private async start(): Promise<void> {
    const began = Date.now();
    const loaded = this.startState.load(this.fold).then((positions) => {
      this.positions = positions;
      this.startOffsets = [...positions];
    });
    // The group joins in the background (on Kafka that can take a while): its batches wait for the
    // load, and its first batch per partition reads whatever the start's read did not reach.
    this.joining = this.log.consume({
      groupId: `market-data.reader.${randomUUID()}`,
      topics: [topic],
      ephemeral: true,
      eachBatch: async (batch) => {
        await loaded;
        await this.serial(batch.partition, () => this.onBatch(batch));
      },
    });
    this.joining.catch((error: unknown) =>
      this.logger.error({ err: error }, 'market-data: live consumer failed to start'),
    );
    await loaded;
    const targets = await this.log.endOffsets(topic);
    await Promise.all(targets.map((end, partition) => this.serial(partition, () => this.readUpTo(partition, end))));
    this.ready = !this.stopped;
    if (this.ready) this.markReady();
    this.logger.info(
      { ms: Date.now() - began, from: this.startOffsets, offsets: this.positions },
      'market-data: caught up',
    );
  }

  private async onBatch(batch: IncomingBatch): Promise<void> {
    const first = batch.records[0]?.offset;
    if (first === undefined) return;
    // Only the first live batch can start past what was folded (the group joined later than the
    // start's read ended). Later ones may too, by Kafka's transaction markers, which are no records.
    if (!this.live.has(batch.partition)) {
      await this.readUpTo(batch.partition, first);
      this.live.add(batch.partition);
    }
    this.foldRecords(batch.partition, batch.records);
  }

  /** Folds [position, end) of a partition read outside the group. */
  private async readUpTo(partition: number, end: number): Promise<void> {
    const position = this.positions[partition] ?? 0;
    if (position >= end) return;
    const after = await this.log.read(
      topic,
      partition,
      position,
      async (records) => this.foldRecords(partition, records),
      end,
    );
    // A range may end on Kafka transaction markers, which are offsets without records.
    this.positions[partition] = Math.max(this.positions[partition] ?? 0, after);
  }

  private foldRecords(partition: number, records: readonly IncomingRecord[]): void {
    const changes: MarketChange[] = [];
    let position = this.positions[partition] ?? 0;
    for (const record of records) {
      if (record.offset < position) continue;
      const event = parseOrderEvent(record);
      if (event) this.foldEvent(partition, event, changes);
      else
        this.logger.warn(
          { partition, offset: record.offset },
          'market-data: skipped a record that is not an order event',
        );
      position = record.offset + 1;
    }
    this.positions[partition] = position;
    if (this.ready && changes.length > 0) for (const listener of this.listeners) listener(changes);
  }

  /** Folds one event; the fold listeners see what it changed as of its own time, not the batch's end. */
  private foldEvent(partition: number, event: OrderEvent, changes: MarketChange[]): void {
    const before = changes.length;
    this.fold.apply(partition, event, changes);
    if (!this.ready) return;
    const own = changes.slice(before);
    for (const listener of this.foldListeners) listener(partition, own);
  }

  /** One partition's work at a time, in arrival order: the start's read, then live batches. */
  private serial(partition: number, work: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(partition) ?? Promise.resolve()).then(work);
    this.chains.set(
      partition,
      next.catch(() => undefined),
    );
    return next;
  }
}
