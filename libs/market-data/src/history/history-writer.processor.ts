import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Markets, Topics } from '@exchange/contracts';
import {
  type Consumer,
  type EventLog,
  type IncomingBatch,
  type IncomingRecord,
  partitionForKey,
} from '@exchange/messaging';
import { CLOCK, type Clock, EVENT_LOG, LOGGER, type Logger, MARKETS } from '@exchange/platform';
import { type MarketChange, MarketFold, marketSymbolsOf, takeCut } from '../domain';
import { MARKET_DATA_SETTINGS, type MarketDataSettings } from '../market-data.settings';
import { parseOrderEvent } from '../reading/order-event.parser';
import { historyBatchOf } from './history-batch';
import { type HistoryBatch, MarketHistoryStore } from './market-history.store';
import { loadStoredPartitions } from './stored-start';

export const HISTORY_GROUP = 'market-data-history';
const topic = Topics.orderEvents.name;
/** History is written at most this often per partition: under a burst, one transaction carries many batches. */
const FLUSH_EVERY_MS = 250;
/** …or at once when this many changes wait, which bounds the memory a burst takes. */
const MAX_PENDING_CHANGES = 50_000;
/** Candles deleted per symbol and interval per statement, and statements per cut: a prune stays short. */
const KLINE_PRUNE_BUDGET = { rows: 1000, statements: 10 };

interface WriterPartition {
  fold: MarketFold;
  /** The stored checkpoint: history includes every event below it. */
  committed: number;
  /** Every event below it is in the fold. */
  folded: number;
  /** Folded and not yet stored. */
  pending: MarketChange[];
  flushTimer: NodeJS.Timeout | undefined;
  updatesSinceCut: number;
  cutAt: number;
  /** One step at a time per partition: batches and timed flushes. */
  chain: Promise<void>;
  /** The group has handed this writer a batch of the partition since it was loaded. */
  live: boolean;
}

/**
 * The history writer inside every market-data replica: one consumer group for all of them, so
 * each partition has one writer. It folds its partitions into a fold of its own and, at most
 * every 250 ms per partition, stores in one PostgreSQL transaction the new trades, the touched
 * candles, the partition's book cut when due (every N book updates or T ms) and the checkpoint,
 * moved by compare-and-set. The stored checkpoint, not the group's offset, says what is stored:
 * a writer that (re)starts loads the store and reads from the log whatever lies between the
 * checkpoint and the first batch the group hands it. The group is joined in the background.
 */
@Injectable()
export class HistoryWriter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly partitions = new Map<number, WriterPartition>();
  private joining: Promise<Consumer> | undefined;

  constructor(
    private readonly store: MarketHistoryStore,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(MARKET_DATA_SETTINGS) private readonly settings: MarketDataSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.joining = this.log.consume({
      groupId: HISTORY_GROUP,
      topics: [topic],
      fromBeginning: true,
      eachBatch: (batch) => this.onEvents(batch),
    });
    this.joining.catch((error: unknown) =>
      this.logger.error({ err: error }, 'market-data: history writer failed to start'),
    );
  }

  /** Stops consuming, then stores what is pending (what is not stored is read again by the next writer). */
  async onApplicationShutdown(): Promise<void> {
    const consumer = await this.joining?.catch(() => undefined);
    await consumer?.stop();
    await Promise.all(
      [...this.partitions].map(([partition, state]) =>
        this.step(partition, state, () => this.flush(partition, state)).catch(() => undefined),
      ),
    );
  }

  private async onEvents(batch: IncomingBatch): Promise<void> {
    const state = this.partitions.get(batch.partition) ?? (await this.load(batch.partition));
    await this.step(batch.partition, state, async () => {
      const first = batch.records[0]?.offset ?? batch.nextOffset;
      // The group's first batch may start past the checkpoint (a crashed writer folded but never
      // stored what lies between). Later gaps are Kafka's transaction markers, which hold no records.
      if (!state.live && first > state.folded)
        await this.log.read(
          topic,
          batch.partition,
          state.folded,
          async (records) => this.foldRecords(batch.partition, state, records),
          first,
        );
      state.live = true;
      this.foldRecords(batch.partition, state, batch.records);
      if (state.pending.length >= MAX_PENDING_CHANGES) await this.flush(batch.partition, state);
      else this.scheduleFlush(batch.partition, state);
    });
  }

  private foldRecords(partition: number, state: WriterPartition, records: readonly IncomingRecord[]): void {
    for (const record of records) {
      if (record.offset < state.folded) continue;
      const event = parseOrderEvent(record);
      if (event) state.fold.apply(partition, event, state.pending);
      state.folded = record.offset + 1;
    }
  }

  private scheduleFlush(partition: number, state: WriterPartition): void {
    if (state.flushTimer !== undefined || state.folded === state.committed) return;
    state.flushTimer = setTimeout(() => {
      state.flushTimer = undefined;
      void this.step(partition, state, () => this.flush(partition, state)).catch(() => undefined);
    }, FLUSH_EVERY_MS);
    state.flushTimer.unref();
  }

  private async flush(partition: number, state: WriterPartition): Promise<void> {
    if (this.partitions.get(partition) !== state || state.folded === state.committed) return;
    clearTimeout(state.flushTimer);
    state.flushTimer = undefined;
    const commit = this.batchOf(partition, state);
    try {
      await this.store.commitBatch(commit);
    } catch (error) {
      // Another writer moved the checkpoint, or the store failed: forget the partition, reload it with the next batch.
      this.partitions.delete(partition);
      this.logger.warn({ err: error, partition }, 'market-data: history not stored; the partition is reloaded');
      throw error;
    }
    state.committed = commit.nextOffset;
    state.pending = [];
    if (commit.cut) {
      state.updatesSinceCut = 0;
      state.cutAt = this.clock.now();
      await this.pruneKlines(partition, commit);
    }
  }

  /**
   * Candles past retention, after a cut (at most once per cut interval) and outside its
   * transaction, by the partition's event time (what the start's 24 h window is measured by, so
   * the 1m candles it reads are never the ones gone). Bounded per call; a failure only waits
   * for the next cut.
   */
  private async pruneKlines(partition: number, commit: HistoryBatch): Promise<void> {
    if (this.settings.klineRetention.size === 0) return;
    try {
      await this.store.pruneKlines(
        commit.cut!.symbols.map((s) => s.symbol),
        this.settings.klineRetention,
        commit.eventTime,
        KLINE_PRUNE_BUDGET,
      );
    } catch (error) {
      this.logger.warn({ err: error, partition }, 'market-data: candles past retention not pruned this time');
    }
  }

  private batchOf(partition: number, state: WriterPartition): HistoryBatch {
    const { batch, bookUpdates } = historyBatchOf(state.fold, partition, state.pending, state.committed, state.folded);
    state.updatesSinceCut += bookUpdates;
    // Also when the book is quiet: the clock ticks keep coming, and a new replica reads all events after the cut.
    if (
      state.updatesSinceCut >= this.settings.cutEveryUpdates ||
      this.clock.now() - state.cutAt >= this.settings.cutEveryMs
    ) {
      batch.cut = takeCut(state.fold, partition, state.folded);
      // Retention rides on the cut: at most once per cut interval, not per 250 ms flush.
      if (this.settings.tradeRetentionMs > 0)
        batch.prune = {
          symbols: batch.cut.symbols.map((s) => s.symbol),
          before: batch.eventTime - this.settings.tradeRetentionMs,
        };
    }
    return batch;
  }

  private step(partition: number, state: WriterPartition, work: () => Promise<void>): Promise<void> {
    const next = state.chain.then(work);
    state.chain = next.catch(() => undefined);
    return next;
  }

  /** The partition as stored, brought to the checkpoint by reading the events after its cut. */
  private async load(partition: number): Promise<WriterPartition> {
    const partitions = await this.log.partitionCount(topic);
    const fold = new MarketFold(marketSymbolsOf(this.markets), (symbol) => partitionForKey(symbol, partitions));
    const start = (await loadStoredPartitions(fold, this.store, [partition])).get(partition)!;
    await this.log.read(
      topic,
      partition,
      start.from,
      async (records) => {
        for (const record of records) {
          const event = parseOrderEvent(record);
          if (event) fold.apply(partition, event);
        }
      },
      start.checkpoint,
    );
    const state: WriterPartition = {
      fold,
      committed: start.checkpoint,
      folded: start.checkpoint,
      pending: [],
      flushTimer: undefined,
      updatesSinceCut: 0,
      cutAt: this.clock.now(),
      chain: Promise.resolve(),
      live: false,
    };
    this.partitions.set(partition, state);
    this.logger.info(
      { partition, from: start.from, checkpoint: start.checkpoint },
      'market-data: history partition loaded',
    );
    return state;
  }
}
