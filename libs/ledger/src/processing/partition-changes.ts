import type { LedgerJournalEvent } from '@exchange/contracts';
import type { LedgerState } from '../domain/ledger-state';
import { endedHolding } from './ended-orders';
import { changedShares } from './partition-shares';

/** What changed in a partition since its last snapshot: what the next one writes. */
export class PartitionChanges {
  readonly users = new Set<string>();
  /** Command ids the window holds from now on, with their decision time. */
  readonly ids: [commandId: string, at: number][] = [];
  /** Orders that ended holding their client id, in the order they ended. */
  readonly ended: string[] = [];
  /** Per account, the time of its last order placed: when the fold last evicted its ended orders. */
  readonly evictions = new Map<string, number>();

  constructor(
    /** Every share is written: there is no incremental snapshot to build on. */
    readonly everything = false,
  ) {}

  /** An event folded into the state (decided, or folded on restore). */
  noteEvent(event: LedgerJournalEvent, state: LedgerState): void {
    changedShares(event, state, this.users);
    if (event.type === 'OrderPlaced') this.evictions.set(event.payload.order.accountId, event.ts);
    else if (event.type === 'OrderOutcomeApplied' || event.type === 'TradeSettled') {
      const orderId = event.payload.order.orderId;
      if (endedHolding(state, orderId)) this.ended.push(orderId);
    }
  }

  /** A command id the window holds from now on. */
  noteId(commandId: string, at: number): void {
    this.ids.push([commandId, at]);
  }
}
