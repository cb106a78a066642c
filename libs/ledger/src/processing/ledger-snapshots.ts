import { Inject, Injectable } from '@nestjs/common';
import { Topics } from '@exchange/contracts';
import type { EventLog, OutgoingRecord, ProcessedIds } from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, EVENT_LOG } from '@exchange/platform';
import type { LedgerState } from '../domain/ledger-state';
import { LedgerSnapshotStore } from './ledger-snapshot-store';
import { capturePartition, type PartitionScope } from './partition-state';

/**
 * When a partition's state is snapshotted: after LEDGER_SNAPSHOT_EVERY commands, or at the first
 * batch LEDGER_SNAPSHOT_INTERVAL_MS after the last snapshot if anything was decided since. The
 * snapshot is taken before the batch is decided, so it names the batch's first offset as the
 * input it includes, and the end of the partition's ledger.events as read then (nothing of this
 * partition is being written meanwhile: its one owner is here). Its records go out in the
 * batch's own atomic step: a snapshot exists exactly when the step that wrote it committed.
 */
@Injectable()
export class LedgerSnapshots {
  private readonly since = new Map<number, { commands: number; at: number }>();
  private readonly every: number;
  private readonly intervalMs: number;

  constructor(
    private readonly store: LedgerSnapshotStore,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
  ) {
    this.every = config.LEDGER_SNAPSHOT_EVERY;
    this.intervalMs = config.LEDGER_SNAPSHOT_INTERVAL_MS;
  }

  /** The partition's state was just restored: count from here. */
  restored(partition: number): void {
    this.since.set(partition, { commands: 0, at: this.clock.now() });
  }

  /** The snapshot records to emit with a batch of `incoming` commands starting at `inputOffset`, when one is due. */
  async dueRecords(
    state: LedgerState,
    scope: PartitionScope,
    inputOffset: number,
    processed: ProcessedIds,
    incoming: number,
  ): Promise<OutgoingRecord[]> {
    const now = this.clock.now();
    const since = this.since.get(scope.partition) ?? { commands: 0, at: now };
    const due =
      since.commands >= this.every || (since.commands > 0 && this.intervalMs > 0 && now - since.at >= this.intervalMs);
    if (!due) {
      this.since.set(scope.partition, { commands: since.commands + incoming, at: since.at });
      return [];
    }
    const records = await this.records(state, scope, inputOffset, processed);
    this.since.set(scope.partition, { commands: incoming, at: now });
    return records;
  }

  /**
   * On a graceful stop, once no batch is in flight: the records of a partition whose state stands
   * at `inputOffset` and changed since its last snapshot, so the next start folds nothing.
   */
  async finalRecords(
    state: LedgerState,
    scope: PartitionScope,
    inputOffset: number,
    processed: ProcessedIds,
  ): Promise<OutgoingRecord[]> {
    if ((this.since.get(scope.partition)?.commands ?? 0) === 0) return [];
    return this.records(state, scope, inputOffset, processed);
  }

  private async records(
    state: LedgerState,
    scope: PartitionScope,
    inputOffset: number,
    processed: ProcessedIds,
  ): Promise<OutgoingRecord[]> {
    const eventsOffset = (await this.log.endOffsets(Topics.ledgerEvents.name))[scope.partition] ?? 0;
    return this.store.records(
      {
        partition: scope.partition,
        inputOffset,
        eventsOffset,
        state: capturePartition(state, scope, processed.entries()),
      },
      this.clock.now(),
    );
  }
}
