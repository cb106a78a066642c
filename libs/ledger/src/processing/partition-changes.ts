import type { LedgerJournalEvent } from '@exchange/contracts';
import type { LedgerState } from '../domain/ledger-state';
import { endedBy, type EndedRef } from './ended-orders';
import { changedShares } from './partition-shares';

/** What changed in a partition since its last snapshot: what the next one writes. */
export class PartitionChanges {
  readonly users = new Set<string>();
  /** Command ids the window holds from now on, with their decision time. */
  readonly ids: [commandId: string, at: number][] = [];
  /** Orders (spot and contract) that ended holding their client id, in the order they ended. */
  readonly ended: EndedRef[] = [];
  /** Per account, the time of its last order placed (spot or contract: an account places one kind): when the fold last evicted its ended orders. */
  readonly evictions = new Map<string, number>();
  /** The client ids of the contract orders events about to be folded end (see folding), by orderId. */
  private readonly ending = new Map<string, string>();

  constructor(
    /** Every share is written: there is no incremental snapshot to build on. */
    readonly everything = false,
  ) {}

  /**
   * An event about to be folded (noteEvent follows once it is): a contract order it ends leaves
   * the fold with it, and the events name no client id, so it is read while the order is there.
   */
  folding(event: LedgerJournalEvent, state: LedgerState): void {
    if (event.type !== 'ContractOrderFilled' && event.type !== 'ContractOrderEnded') return;
    const { orderId } = event.payload.order;
    const clientOrderId = state.contracts.orders.get(orderId)?.clientOrderId;
    if (clientOrderId !== undefined) this.ending.set(orderId, clientOrderId);
  }

  /** An event folded into the state (decided, or folded on restore). */
  noteEvent(event: LedgerJournalEvent, state: LedgerState): void {
    changedShares(event, state, this.users);
    if (event.type === 'OrderPlaced' || event.type === 'ContractOrderPlaced')
      this.evictions.set(event.payload.order.accountId, event.ts);
    let ending: string | undefined;
    if (event.type === 'ContractOrderFilled' || event.type === 'ContractOrderEnded') {
      ending = this.ending.get(event.payload.order.orderId);
      this.ending.delete(event.payload.order.orderId);
    }
    const ended = endedBy(event, state, ending);
    if (ended !== undefined) this.ended.push(ended);
  }

  /** A command id the window holds from now on. */
  noteId(commandId: string, at: number): void {
    this.ids.push([commandId, at]);
  }
}
