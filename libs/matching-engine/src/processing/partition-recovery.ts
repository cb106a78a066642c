import { Inject, Injectable } from '@nestjs/common';
import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { SymbolEngines } from '../books/symbol-engines';
import { EngineSnapshotStore } from './engine-snapshot-store';
import { parseOrderCommand } from './order-command.parser';

const topic = Topics.orderCommands.name;

/**
 * Brings a partition's books to an input offset without publishing anything (ARCHITECTURE rule 3):
 * what the replayed commands decided was published, with their offsets, when they were first
 * decided, and deciding them again gives the same state because the books are a pure fold.
 */
@Injectable()
export class PartitionRecovery {
  constructor(
    private readonly engines: SymbolEngines,
    private readonly snapshots: EngineSnapshotStore,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Latest usable snapshot per symbol, then the commands from it up to (not including) `target`. */
  async rebuild(partition: number, target: number): Promise<void> {
    const symbols = this.engines.symbolsOf(partition);
    const snapshots = await this.snapshots.latest(symbols, partition, target);
    const startOf = new Map<string, number>();
    for (const symbol of symbols) {
      const snapshot = snapshots.get(symbol);
      this.engines.reset(symbol, snapshot && { ...snapshot.payload, ts: snapshot.ts });
      startOf.set(symbol, snapshot?.payload.offset ?? 0);
    }
    // Symbols of one partition are snapshotted together, but each may have its own best snapshot.
    const from = Math.min(target, ...startOf.values());
    const replayed = await this.replay(partition, from, target, startOf);
    this.logger.info(
      { partition, snapshots: snapshots.size, from, target, replayed },
      'matching-engine: partition rebuilt',
    );
  }

  /**
   * Applies the commands of [from, target) and drops their output. A symbol in `startOf` skips
   * the commands below its own snapshot's offset, which its restored state already includes.
   */
  async replay(
    partition: number,
    from: number,
    target: number,
    startOf?: ReadonlyMap<string, number>,
  ): Promise<number> {
    let replayed = 0;
    await this.log.read(
      topic,
      partition,
      from,
      async (records) => {
        for (const record of records) {
          if (record.offset >= target) return;
          const parsed = parseOrderCommand(record, (symbol) => this.engines.partitionOf(symbol));
          if (!parsed.ok || record.offset < (startOf?.get(parsed.command.payload.symbol) ?? 0)) continue;
          this.engines.apply(parsed.command);
          replayed += 1;
        }
      },
      target,
    );
    return replayed;
  }
}
