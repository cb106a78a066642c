import type { LedgerJournalEvent } from '@exchange/contracts';
import type { LedgerState } from '../domain/ledger-state';
import { changedShares } from './partition-shares';

/** What changed in a partition since its last snapshot: what the next one writes. */
export class PartitionChanges {
  constructor(
    /** Every share is written: there is no incremental snapshot to build on. */
    readonly everything = false,
  ) {}

  readonly users = new Set<string>();
  ids: string[] = [];
  idsAt: number[] = [];

  /** An event folded into the state (decided, or folded on restore). */
  noteEvent(event: LedgerJournalEvent, state: LedgerState): void {
    changedShares(event, state, this.users);
  }

  /** A command id the window holds from now on. */
  noteId(commandId: string, at: number): void {
    this.ids.push(commandId);
    this.idsAt.push(at);
  }
}
