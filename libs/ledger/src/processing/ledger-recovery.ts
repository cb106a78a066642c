import { Inject, Injectable } from '@nestjs/common';
import { parseJournalRecord, Topics } from '@exchange/contracts';
import { type EventLog, ProcessedIds } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { evolve, type LedgerState } from '../domain/ledger-state';
import { type LedgerSnapshot, LedgerSnapshotStore } from './ledger-snapshot-store';
import { restoreEndedOrders } from './ended-orders';
import { PartitionChanges } from './partition-changes';
import { forgetPartition, type PartitionScope, restorePartition } from './partition-state';

/** A partition rebuilt: the command ids decided within the window, the snapshot it started from, and what the events folded after it changed. */
export interface Rebuilt {
  processed: ProcessedIds;
  snapshot: LedgerSnapshot | undefined;
  changes: PartitionChanges;
}

/**
 * Brings one partition's hot state to what the ledger journaled (ARCHITECTURE rules 1 and 6): the
 * newest snapshot not past `target`, then every ledger.events record after it, folded, never a
 * command decided again. An event is folded only when its per-user sequence is past what the state
 * holds for that user, so a snapshot whose events offset was read a little early (Kafka writes a
 * transaction's markers after the commit returns) only costs a few events skipped.
 */
@Injectable()
export class LedgerRecovery {
  constructor(
    private readonly snapshots: LedgerSnapshotStore,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Rebuilds the partition in `state`: the command ids decided within the window (from the snapshot and the events), and what changed since the snapshot. */
  async rebuild(state: LedgerState, scope: PartitionScope, target: number): Promise<Rebuilt> {
    const started = Date.now();
    forgetPartition(state, scope);
    const snapshot = await this.snapshots.latest(scope.partition, target);
    const processed = new ProcessedIds();
    // Without an incremental snapshot to build on (none, or a full one of an earlier version), or one whose
    // shares hold what is now kept apart, the next one writes everything.
    const changes = new PartitionChanges(
      snapshot?.incremental === undefined || snapshot.incremental.contractIdsInShares,
    );
    if (snapshot) {
      for (const share of snapshot.shares) restorePartition(state, share);
      restoreEndedOrders(state, snapshot.ended, snapshot.evictedAt);
      for (const [commandId, at] of snapshot.processed) {
        processed.add(commandId, at);
        if (changes.everything) changes.noteId(commandId, at);
      }
    }
    let folded = 0;
    await this.log.read(Topics.ledgerEvents.name, scope.partition, snapshot?.eventsOffset ?? 0, async (records) => {
      for (const record of records) {
        const event = parseJournalRecord(record.value);
        if (!event || event.payload.seq <= (state.users.get(event.payload.userId)?.seq ?? 0)) continue;
        changes.folding(event, state);
        evolve(state, event);
        changes.noteEvent(event, state);
        if (!processed.has(event.payload.commandId)) changes.noteId(event.payload.commandId, event.ts);
        processed.add(event.payload.commandId, event.ts);
        folded += 1;
      }
    });
    this.logger.info(
      {
        partition: scope.partition,
        target,
        snapshotInputOffset: snapshot?.inputOffset,
        fromEventsOffset: snapshot?.eventsOffset ?? 0,
        folded,
        ms: Date.now() - started,
      },
      'ledger: partition restored from snapshot and journal',
    );
    return { processed, snapshot, changes };
  }
}
