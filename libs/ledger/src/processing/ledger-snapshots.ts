import { Inject, Injectable } from '@nestjs/common';
import { type LedgerJournalEvent, Topics } from '@exchange/contracts';
import type { EventLog, OutgoingRecord, ProcessedIds } from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import type { LedgerState } from '../domain/ledger-state';
import { type LedgerSnapshot, LedgerSnapshotStore } from './ledger-snapshot-store';
import { type EndedOrder, endedOrdersOf, endedRecord, type EndedRef } from './ended-orders';
import { PartitionChanges } from './partition-changes';
import { allShares, captureShares, PARTITION_SHARE } from './partition-shares';
import type { PartitionScope } from './partition-state';
import { SlotRing } from './slot-ring';

interface Tracking {
  commands: number;
  at: number;
  changes: PartitionChanges;
  seq: number;
  /** The inputOffset of the snapshot that started the rings. */
  epoch: number;
  ids: SlotRing<[string, number]>;
  ended: SlotRing<[seq: number, order: EndedRef]>;
  endedSeq: number;
  /** Per account, when the fold last evicted its ended orders (what its share writes). */
  evictedAt: Map<string, number>;
}

/**
 * When a partition's state is snapshotted: after LEDGER_SNAPSHOT_EVERY commands, or at the first
 * batch LEDGER_SNAPSHOT_INTERVAL_MS after the last snapshot if anything was decided since. The
 * snapshot is taken before the batch is decided, so it names the batch's first offset as the
 * input it includes, and the end of the partition's ledger.events as read then (nothing of this
 * partition is being written meanwhile: its one owner is here). Its records go out in the
 * batch's own atomic step: a snapshot exists exactly when the step that wrote it committed.
 * A snapshot is incremental: it writes the shares of the users whose state changed since the one
 * before (and the partition's own share), and the command ids decided since, so its cost follows
 * what changed, not the partition's size.
 */
@Injectable()
export class LedgerSnapshots {
  private readonly tracking = new Map<number, Tracking>();
  private readonly every: number;
  private readonly intervalMs: number;

  constructor(
    private readonly store: LedgerSnapshotStore,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) config: Config,
  ) {
    this.every = config.LEDGER_SNAPSHOT_EVERY;
    this.intervalMs = config.LEDGER_SNAPSHOT_INTERVAL_MS;
  }

  /**
   * The partition's state was just restored from `snapshot` (if any) and `changes` folded after
   * it (LedgerRecovery): count from here; the next snapshot writes those changes.
   */
  restored(partition: number, snapshot: LedgerSnapshot | undefined, changes: PartitionChanges): void {
    // Rings that start again (changes.everything) hold nothing of the snapshot's: all is written afresh.
    const incremental = changes.everything ? undefined : snapshot?.incremental;
    const ring = incremental?.marker.ring;
    this.tracking.set(partition, {
      commands: 0,
      at: this.clock.now(),
      changes,
      seq: snapshot?.incremental?.marker.seq ?? 0,
      epoch: ring?.epoch ?? -1,
      ids: new SlotRing(ring?.ids, incremental?.ids),
      ended: new SlotRing(ring?.ended, incremental?.ended),
      endedSeq: ring?.endedSeq ?? 0,
      evictedAt: new Map(snapshot?.evictedAt),
    });
  }

  /** An event of a command about to be folded in the partition (decided follows): see PartitionChanges.folding. */
  folding(partition: number, event: LedgerJournalEvent, state: LedgerState): void {
    this.tracked(partition).changes.folding(event, state);
  }

  /** A command decided in the partition (restored first: see restored), with its events: the next snapshot writes what they changed. */
  decided(
    partition: number,
    commandId: string,
    at: number,
    events: readonly LedgerJournalEvent[],
    state: LedgerState,
  ): void {
    const { changes } = this.tracked(partition);
    for (const event of events) changes.noteEvent(event, state);
    changes.noteId(commandId, at);
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
    const t = this.tracked(scope.partition);
    const due = t.commands >= this.every || (t.commands > 0 && this.intervalMs > 0 && now - t.at >= this.intervalMs);
    if (!due) {
      t.commands += incoming;
      return [];
    }
    const records = await this.records(state, scope, inputOffset, processed);
    t.commands = incoming;
    t.at = now;
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
    if ((this.tracking.get(scope.partition)?.commands ?? 0) === 0) return [];
    return this.records(state, scope, inputOffset, processed);
  }

  private tracked(partition: number): Tracking {
    const t = this.tracking.get(partition);
    if (!t) throw new Error(`ledger: partition ${partition} is snapshotted before it was restored`);
    return t;
  }

  private async records(
    state: LedgerState,
    scope: PartitionScope,
    inputOffset: number,
    processed: ProcessedIds,
  ): Promise<OutgoingRecord[]> {
    const started = performance.now();
    const eventsOffset = (await this.log.endOffsets(Topics.ledgerEvents.name))[scope.partition] ?? 0;
    const t = this.tracked(scope.partition);
    const { changes } = t;
    // Without a snapshot to build on, the rings start again: slots of an earlier epoch are not read back.
    if (changes.everything) t.epoch = inputOffset;
    for (const [accountId, at] of changes.evictions) t.evictedAt.set(accountId, at);
    const users = changes.everything ? allShares(state, scope) : changes.users.add(PARTITION_SHARE);
    const shares = captureShares(state, scope, users, t.evictedAt);
    const ids = t.ids.take(changes.ids, ([id]) => {
      const at = processed.decidedAtOf(id);
      return at === undefined ? undefined : [id, at];
    });
    // An order that ended since may have left already (evicted, or its client id taken again).
    const endedIds = changes.everything
      ? endedOrdersOf(state, scope)
      : changes.ended.filter((ref) => endedRecord(state, ref));
    const ended = t.ended.take(
      endedIds.map((ref) => [t.endedSeq++, ref]),
      (entry) => (endedRecord(state, entry[1]) ? entry : undefined),
    );
    t.seq += 1;
    const records = this.store.records({
      partition: scope.partition,
      marker: {
        seq: t.seq,
        inputOffset,
        eventsOffset,
        ring: { epoch: t.epoch, ids: t.ids.next, ended: t.ended.next, endedSeq: t.endedSeq },
      },
      shares,
      ids,
      ended: ended && {
        slot: ended.slot,
        entries: ended.entries.map(([seq, ref]): EndedOrder => [seq, endedRecord(state, ref)!]),
      },
    });
    t.changes = new PartitionChanges();
    this.logger.debug(
      {
        partition: scope.partition,
        inputOffset,
        shares: shares.size,
        ids: ids?.entries.length ?? 0,
        ended: ended?.entries.length ?? 0,
        records: records.length,
        chars: records.reduce((sum, r) => sum + r.value.length, 0),
        ms: Math.round((performance.now() - started) * 100) / 100,
      },
      'ledger: snapshot written',
    );
    return records;
  }
}
