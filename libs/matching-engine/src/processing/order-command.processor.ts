import { Controller, Inject, type OnApplicationShutdown } from '@nestjs/common';
import { HeaderNames, Topics } from '@exchange/contracts';
import {
  type BatchOutcome,
  ConsumeBatches,
  type EventLog,
  type IncomingBatch,
  type IncomingRecord,
  type OutgoingRecord,
} from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { SymbolEngines } from '../books/symbol-engines';
import {
  MATCHING_ENGINE_GROUP,
  MATCHING_ENGINE_SETTINGS,
  type MatchingEngineSettings,
} from '../matching-engine.settings';
import { ClockTicker } from './clock-ticker';
import { EngineSnapshotStore } from './engine-snapshot-store';
import { parseOrderCommand } from './order-command.parser';
import { outputRecords } from './output-records';
import { PartitionRecovery } from './partition-recovery';

/**
 * The engine's input. Each batch of one order.commands partition is decided in order and its
 * order.events, its ledger settlement commands, any snapshot it triggers and its input offset
 * are committed as one atomic step. The books of a partition are known to include exactly the
 * commands below `positions[partition]`; a batch that starts anywhere else (first batch after a
 * start or a rebalance, a redelivery after a failed commit) first brings them to its start.
 */
@Controller()
export class OrderCommandProcessor implements OnApplicationShutdown {
  private readonly positions = new Map<number, number>();
  /** Offset of the last snapshot written per partition, so shutdown does not repeat it. */
  private readonly snapshotAt = new Map<number, number>();

  constructor(
    private readonly engines: SymbolEngines,
    private readonly recovery: PartitionRecovery,
    private readonly snapshots: EngineSnapshotStore,
    private readonly ticker: ClockTicker,
    @Inject(MATCHING_ENGINE_SETTINGS) private readonly settings: MatchingEngineSettings,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  // Its effects are the records it returns and the books: it may decide from records not yet synced (ConsumerOptions.readUnsynced).
  @ConsumeBatches({
    topic: Topics.orderCommands.name,
    groupId: MATCHING_ENGINE_GROUP,
    fromBeginning: true,
    readUnsynced: true,
  })
  async onCommands(batch: IncomingBatch): Promise<BatchOutcome> {
    const start = batch.records[0]?.offset;
    if (start === undefined) return {};
    try {
      await this.catchUp(batch.partition, start, batch.fromOffset);
      const emit: OutgoingRecord[] = [];
      for (const record of batch.records) emit.push(...this.decide(record));
      this.positions.set(batch.partition, batch.nextOffset);
      if (
        Math.floor(batch.nextOffset / this.settings.snapshotEvery) > Math.floor(start / this.settings.snapshotEvery)
      ) {
        emit.push(...this.snapshots.records(this.engines.booksOf(batch.partition), batch.partition, batch.nextOffset));
        this.snapshotAt.set(batch.partition, batch.nextOffset);
      }
      return { emit };
    } catch (error) {
      // The books may hold part of this batch: forget where they stand so the retry rebuilds them.
      this.positions.delete(batch.partition);
      this.logger.error({ err: error, partition: batch.partition, offset: start }, 'matching-engine: batch failed');
      throw error;
    }
  }

  /**
   * On a graceful stop, after the consumers have stopped: snapshot each partition whose books
   * stand at or below its committed offset (a batch decided but not committed must not be captured).
   */
  async onApplicationShutdown(): Promise<void> {
    try {
      const committed = await this.log.committedOffsets(MATCHING_ENGINE_GROUP, Topics.orderCommands.name);
      const records: OutgoingRecord[] = [];
      for (const [partition, position] of this.positions) {
        // Committed past `position` means the batch ending there was committed too (the rest: transaction markers, or another owner's deterministic replay of the same commands).
        if (!((committed[partition] ?? 0) >= position) || this.snapshotAt.get(partition) === position) continue;
        records.push(...this.snapshots.records(this.engines.booksOf(partition), partition, position));
      }
      await this.log.publish(records);
    } catch (error) {
      // Only a shortcut is lost: the next start replays from the previous snapshot.
      this.logger.warn({ err: error }, 'matching-engine: shutdown snapshot not written');
    }
  }

  private async catchUp(partition: number, start: number, continuesFrom: number | undefined): Promise<void> {
    const position = this.positions.get(partition);
    // Only transaction markers between the last batch and this one (Kafka): nothing to fold in.
    if (position === start || (position !== undefined && position === continuesFrom)) return;
    // Ahead (redelivery) or unknown: rebuild. Behind: another owner decided [position, start); fold it in.
    if (position === undefined || position > start) await this.recovery.rebuild(partition, start);
    else await this.recovery.replay(partition, position, start);
    this.positions.set(partition, start);
  }

  private decide(record: IncomingRecord): OutgoingRecord[] {
    const parsed = parseOrderCommand(record, (symbol) => this.engines.partitionOf(symbol));
    if (!parsed.ok) {
      this.logger.warn(
        { partition: record.partition, offset: record.offset, problem: parsed.problem, details: parsed.details },
        'matching-engine: skipped a record',
      );
      return [];
    }
    const out = this.engines.apply(parsed.command);
    const correlationId = record.headers[HeaderNames.correlationId];
    this.logger.debug(
      { correlationId, commandId: parsed.command.id, type: parsed.command.type, events: out?.events.length ?? 0 },
      'matching-engine: decided',
    );
    if (out === undefined) return [];
    this.ticker.noteEvents(out.symbol, out.events);
    return outputRecords(out, correlationId);
  }
}
