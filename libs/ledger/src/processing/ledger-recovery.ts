import { Inject, Injectable } from '@nestjs/common';
import { parseJournalRecord, Topics } from '@exchange/contracts';
import { type EventLog, ProcessedIds } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { evolve, type LedgerState } from '../domain/ledger-state';
import { LedgerSnapshotStore } from './ledger-snapshot-store';
import { forgetPartition, type PartitionScope, restorePartition } from './partition-state';

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

  /** Rebuilds the partition in `state`; resolves with the command ids decided within the window (from the snapshot and the events). */
  async rebuild(state: LedgerState, scope: PartitionScope, target: number): Promise<ProcessedIds> {
    const started = Date.now();
    forgetPartition(state, scope);
    const snapshot = await this.snapshots.latest(scope.partition, target);
    const processed = new ProcessedIds();
    if (snapshot) {
      restorePartition(state, snapshot.state);
      for (const [commandId, at] of snapshot.state.processed) processed.add(commandId, at);
    }
    let folded = 0;
    await this.log.read(Topics.ledgerEvents.name, scope.partition, snapshot?.eventsOffset ?? 0, async (records) => {
      for (const record of records) {
        const event = parseJournalRecord(record.value);
        if (!event || event.payload.seq <= (state.users.get(event.payload.userId)?.seq ?? 0)) continue;
        evolve(state, event);
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
    return processed;
  }
}
