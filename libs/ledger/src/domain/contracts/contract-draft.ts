import type { ContractEvent } from '@exchange/contracts';
import { type ContractsState, evolveContracts } from './contract-state';

const DELETED = Symbol('deleted');

/**
 * A map that reads through to a base map and keeps its own writes: deciding a cascade (a
 * liquidation that cancels orders, then hands the position on) folds each step's events into a
 * draft, so the next step sees them, while the state itself stays untouched until evolve.
 */
class OverlayMap<K, V> extends Map<K, V> {
  private readonly writes = new Map<K, V | typeof DELETED>();

  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }

  override get(key: K): V | undefined {
    const written = this.writes.get(key);
    if (written === DELETED) return undefined;
    return written !== undefined ? written : this.base.get(key);
  }

  override has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  override set(key: K, value: V): this {
    this.writes.set(key, value);
    return this;
  }

  override delete(key: K): boolean {
    const had = this.has(key);
    this.writes.set(key, DELETED);
    return had;
  }

  override get size(): number {
    let n = 0;
    for (const _ of this.entries()) n++;
    return n;
  }

  override *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) if (!this.writes.has(key)) yield [key, value];
    for (const [key, value] of this.writes) if (value !== DELETED) yield [key, value];
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/**
 * A draft of the state for one decision. The price indexes are not carried: a decision looks
 * its candidates up once, in the real state, before it changes anything.
 */
export class ContractDraft {
  readonly state: ContractsState;
  readonly events: ContractEvent[] = [];

  constructor(base: ContractsState) {
    this.state = {
      balances: new OverlayMap(base.balances),
      positions: new OverlayMap(base.positions),
      orders: new OverlayMap(base.orders),
      positionOrders: new OverlayMap(base.positionOrders),
      accountPositions: new OverlayMap(base.accountPositions),
      fundings: new OverlayMap(base.fundings),
      fundingCursors: new OverlayMap(base.fundingCursors),
      marks: new OverlayMap(base.marks),
      liquidation: new Map(),
      stops: new Map(),
      uncovered: new OverlayMap(base.uncovered),
      adlPending: new OverlayMap(base.adlPending),
      adlReserved: new OverlayMap(base.adlReserved),
    };
  }

  emit(...events: ContractEvent[]): void {
    for (const event of events) {
      evolveContracts(this.state, event);
      this.events.push(event);
    }
  }
}
