import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Markets, Topics } from '@exchange/contracts';
import { type Consumer, type EventLog, type IncomingBatch, partitionForKey } from '@exchange/messaging';
import { CLOCK, type Clock, EVENT_LOG, LOGGER, type Logger, MARKETS } from '@exchange/platform';
import { type MarketChange, MarketFold, takeCut } from '../domain';
import { parseOrderEvent } from '../reading/order-event.parser';
import { MARKET_DATA_SETTINGS, type MarketDataSettings } from '../market-data.settings';
import { type HistoryBatch, MarketHistoryStore } from './market-history.store';
import { loadStoredPartitions } from './stored-start';

export const HISTORY_GROUP = 'market-data-history';
const topic = Topics.orderEvents.name;

interface WriterPartition {
  fold: MarketFold;
  nextOffset: number;
  updatesSinceCut: number;
  cutAt: number;
}

/**
 * The history writer inside every market-data replica: one consumer group for all of them, so
 * each partition has one writer. Per batch, in one PostgreSQL transaction: new trades inserted,
 * touched candles upserted, the book cut of the partition when due (every N book updates or T ms),
 * and the checkpoint moved by compare-and-set. It folds its partitions into a fold of its own, so
 * what it writes is exactly the state at the checkpoint. The group is joined in the background, so
 * a replica's start never waits for a rebalance.
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
    this.joining = this.log.consume({ groupId: HISTORY_GROUP, topics: [topic], fromBeginning: true, eachBatch: (batch) => this.onEvents(batch) });
    this.joining.catch((error: unknown) => this.logger.error({ err: error }, 'market-data: history writer failed to start'));
  }

  /** Stops after the batch in hand: its transaction is committed or not, never half. */
  async onApplicationShutdown(): Promise<void> {
    const consumer = await this.joining?.catch(() => undefined);
    await consumer?.stop();
  }

  private async onEvents(batch: IncomingBatch): Promise<void> {
    const state = this.partitions.get(batch.partition) ?? (await this.load(batch.partition));
    const changes: MarketChange[] = [];
    let folded = 0;
    for (const record of batch.records) {
      if (record.offset < state.nextOffset) continue;
      const event = parseOrderEvent(record);
      if (event) state.fold.apply(batch.partition, event, changes);
      folded += 1;
    }
    if (folded === 0) return;
    const commit = this.batchOf(batch, state, changes);
    try {
      await this.store.commitBatch(commit);
    } catch (error) {
      // The fold ran ahead of what was committed: forget the partition and reload it on the retry.
      this.partitions.delete(batch.partition);
      throw error;
    }
    state.nextOffset = batch.nextOffset;
    if (commit.cut) {
      state.updatesSinceCut = 0;
      state.cutAt = this.clock.now();
    }
  }

  private batchOf(batch: IncomingBatch, state: WriterPartition, changes: MarketChange[]): HistoryBatch {
    const commit: HistoryBatch = { partition: batch.partition, expectedOffset: state.nextOffset, nextOffset: batch.nextOffset, eventTime: state.fold.clock(batch.partition).eventTime, trades: [], klines: [] };
    const klines = new Map<string, HistoryBatch['klines'][number]>();
    for (const change of changes) {
      if (change.kind === 'diffDepth') state.updatesSinceCut += 1;
      else if (change.kind === 'trade') commit.trades.push({ market: state.fold.symbols.get(change.symbol)!, trade: change.trade });
      // A candle touched several times is written once, as it stands at the end of the batch.
      else if (change.kind === 'kline') klines.set(`${change.symbol}|${change.interval}|${change.kline.openTime}`, { market: state.fold.symbols.get(change.symbol)!, interval: change.interval, kline: change.kline });
    }
    commit.klines = [...klines.values()];
    // Also when the book is quiet: the clock ticks keep coming, and a new replica reads all events after the cut.
    const due = state.updatesSinceCut >= this.settings.cutEveryUpdates || this.clock.now() - state.cutAt >= this.settings.cutEveryMs;
    if (due) commit.cut = takeCut(state.fold, batch.partition, batch.nextOffset);
    return commit;
  }

  /** The partition as stored, brought to the checkpoint by reading the events after its cut. */
  private async load(partition: number): Promise<WriterPartition> {
    const partitions = await this.log.partitionCount(topic);
    const fold = new MarketFold(this.markets.symbols, (symbol) => partitionForKey(symbol, partitions));
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
    const state: WriterPartition = { fold, nextOffset: start.checkpoint, updatesSinceCut: 0, cutAt: this.clock.now() };
    this.partitions.set(partition, state);
    this.logger.info({ partition, from: start.from, checkpoint: start.checkpoint }, 'market-data: history partition loaded');
    return state;
  }
}
