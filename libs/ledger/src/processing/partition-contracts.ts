import type { ContractBalanceAfter, PositionAfter } from '@exchange/contracts';
import {
  type AdlPending,
  type AdlReservation,
  adlReservationKey,
  type FundingCursor,
  fundingCursorKey,
  fundingKey,
  type OpenContractOrder,
  type PositionState,
  setBalance,
  setOrder,
  setPosition,
} from '../domain/contracts/contract-state';
import { Money } from '../domain/ledger-money';
import type { LedgerState } from '../domain/ledger-state';

/**
 * The contracts fold's share of one partition: the USDT, positions, open contract orders and
 * client-id index of the accounts it owns. The price heaps and the orders-per-position index are
 * derived and not captured: restoring goes through the fold's own setters, which rebuild them.
 */
export interface PartitionContracts {
  balances: ContractBalanceAfter[];
  /** A position as the fold keeps it (avgPrice is the projection's, not the fold's). */
  positions: Omit<PositionAfter, 'avgPrice'>[];
  /** In the fold's order, so the orders of a position come back in placement order; with their cancel-requested marks. */
  orders: OpenContractOrder[];
  clientIds: [accountId: string, entries: [clientOrderId: string, orderId: string][]][];
  /**
   * The ended orders' client ids still held, with when they ended, in that order. Absent from
   * snapshots taken before ended orders kept them; empty in an incremental snapshot's share since
   * its marker v3 (they are in its ring of ended orders, and `clientIds` holds the open orders' only).
   */
  endedClientIds?: [accountId: string, entries: [clientOrderId: string, finalTime: number][]][];
  /** The last funding time settled per fund account (the partition's insurance share) and symbol. Absent from snapshots taken before funding. */
  fundings?: [fundAccountId: string, symbol: string, fundingTime: number][];
  /** A funding settlement decided in parts: per fund account and symbol, where its next part starts. Absent from snapshots taken before settlements had parts. */
  fundingCursors?: FundingCursor[];
  /** The last mark price consumed per fund account and symbol. Absent from snapshots taken before marks were kept. */
  marks?: [fundAccountId: string, symbol: string, markPrice: string][];
  /** What no margin paid, per account of the partition (ContractsState.uncovered). Absent from snapshots taken before it was kept per account. */
  uncovered?: [accountId: string, amount: string][];
  /** The ADLs the partition requested and awaits answers for (ContractsState.adlPending). Absent from snapshots taken before ADL across partitions. */
  adlPending?: CapturedAdlPending[];
  /** What the partition reserved for ADLs (ContractsState.adlReserved). Absent likewise. */
  adlReserved?: CapturedAdlReservation[];
}

type CapturedAdlPending = Omit<AdlPending, 'quantity' | 'value' | 'mark' | 'offers'> & {
  quantity: string;
  value: string;
  mark: string;
  offers: { partition: number; accountId: string; score: string; quantity: string }[];
};
type CapturedAdlReservation = Omit<AdlReservation, 'entries'> & { entries: { accountId: string; quantity: string }[] };

/**
 * The accounts' contract state. Their positions and open orders are found by the fold's index
 * (accountPositions), their USDT and client ids by account: the cost follows the accounts asked
 * for, not the partition. With `endedApart` (a share of an incremental snapshot) only the open
 * orders' client ids are taken: the ended ones, most of a busy account's, go in the snapshot's
 * ring of ended orders (ended-orders.ts).
 */
export function captureContracts(
  state: LedgerState,
  accountIds: ReadonlySet<string>,
  endedApart = false,
): PartitionContracts {
  const c = state.contracts;
  const captured: PartitionContracts = { balances: [], positions: [], orders: [], clientIds: [], uncovered: [] };
  for (const accountId of accountIds) {
    const b = c.balances.get(accountId);
    if (b)
      captured.balances.push({
        accountId,
        free: b.free.toFixed(),
        locked: b.locked.toFixed(),
        positionMargin: b.positionMargin.toFixed(),
      });
    const uncovered = c.uncovered.get(accountId);
    if (uncovered) captured.uncovered!.push([accountId, uncovered.toFixed()]);
    const orders: OpenContractOrder[] = [];
    for (const key of c.accountPositions.get(accountId) ?? []) {
      const p = c.positions.get(key);
      if (p) captured.positions.push(capturedPosition(p));
      // Each position's in placement order, as setOrder puts them back.
      for (const orderId of c.positionOrders.get(key) ?? []) orders.push(c.orders.get(orderId)!);
    }
    captured.orders.push(...orders);
    const index = state.contractClientIds.get(accountId);
    if (index && endedApart) {
      const held: [string, string][] = [];
      for (const o of orders)
        if (o.clientOrderId !== undefined && index.get(o.clientOrderId) === o.orderId)
          held.push([o.clientOrderId, o.orderId]);
      captured.clientIds.push([accountId, held]);
    } else if (index) captured.clientIds.push([accountId, [...index]]);
  }
  return {
    ...captured,
    endedClientIds: endedApart ? [] : entriesOf(state.contractClientIdsEnded, accountIds),
    fundings: perFundOf(c.fundings, accountIds).map(({ key, symbol, fundAccountId }) => [
      fundAccountId,
      symbol,
      c.fundings.get(key)!,
    ]),
    fundingCursors: [...c.fundingCursors.values()].filter((f) => accountIds.has(f.fundAccountId)),
    marks: perFundOf(c.marks, accountIds).map(({ key, symbol, fundAccountId }) => [
      fundAccountId,
      symbol,
      c.marks.get(key)!.toFixed(),
    ]),
    adlPending: [...c.adlPending.values()]
      .filter((a) => accountIds.has(a.fundAccountId))
      .map((a) => ({
        ...a,
        quantity: a.quantity.toFixed(),
        value: a.value.toFixed(),
        mark: a.mark.toFixed(),
        offers: a.offers.map((o) => ({ ...o, score: o.score.toFixed(), quantity: o.quantity.toFixed() })),
      })),
    adlReserved: [...c.adlReserved.values()]
      .filter((r) => accountIds.has(r.fundAccountId))
      .map((r) => ({ ...r, entries: r.entries.map((e) => ({ ...e, quantity: e.quantity.toFixed() })) })),
  };
}

function capturedPosition(p: PositionState): PartitionContracts['positions'][number] {
  return {
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    size: p.size.toFixed(),
    available: p.size.minus(p.closing).toFixed(),
    opening: p.opening.toFixed(),
    entryValue: p.entryValue.toFixed(),
    margin: p.margin.toFixed(),
    realizedPnl: p.realizedPnl.toFixed(),
    leverage: p.leverage.toFixed(),
    flp: p.flp.toFixed(),
  };
}

/** Removes the accounts' contract state, derived indexes included. */
export function forgetContracts(state: LedgerState, accountIds: ReadonlySet<string>): void {
  const c = state.contracts;
  for (const accountId of accountIds) {
    c.balances.delete(accountId);
    c.uncovered.delete(accountId);
    state.contractClientIds.delete(accountId);
    state.contractClientIdsEnded.delete(accountId);
    c.accountPositions.delete(accountId);
  }
  for (const [key, p] of c.positions) {
    if (!accountIds.has(p.accountId)) continue;
    c.positions.delete(key);
    c.liquidation.get(`${p.symbol}|${p.side}`)?.remove(key);
  }
  for (const [orderId, o] of c.orders) {
    if (!accountIds.has(o.accountId)) continue;
    for (const heap of c.stops.values()) heap.remove(orderId);
    c.orders.delete(orderId);
  }
  for (const { key } of perFundOf(c.fundings, accountIds)) c.fundings.delete(key);
  for (const [adlId, a] of c.adlPending) if (accountIds.has(a.fundAccountId)) c.adlPending.delete(adlId);
  for (const [key, r] of c.adlReserved) if (accountIds.has(r.fundAccountId)) c.adlReserved.delete(key);
  for (const [key, f] of c.fundingCursors) if (accountIds.has(f.fundAccountId)) c.fundingCursors.delete(key);
  for (const { key } of perFundOf(c.marks, accountIds)) c.marks.delete(key);
  // Keyed `accountId|symbol|side`, with or without a position set under that key.
  for (const key of c.positionOrders.keys())
    if (accountIds.has(key.slice(0, key.indexOf('|')))) c.positionOrders.delete(key);
}

/** Puts captured contract state back into a state that holds nothing of its accounts (see forgetContracts). */
export function restoreContracts(state: LedgerState, captured: PartitionContracts): void {
  const c = state.contracts;
  for (const b of captured.balances) setBalance(c, b);
  // setPosition reads no avgPrice; the empty one only satisfies the event's shape.
  for (const p of captured.positions) setPosition(c, { ...p, avgPrice: '' });
  for (const o of captured.orders) setOrder(c, o);
  for (const [accountId, entries] of captured.clientIds) state.contractClientIds.set(accountId, new Map(entries));
  for (const [accountId, entries] of captured.endedClientIds ?? [])
    state.contractClientIdsEnded.set(accountId, new Map(entries));
  for (const [fundAccountId, symbol, fundingTime] of captured.fundings ?? [])
    c.fundings.set(fundingKey(symbol, fundAccountId), fundingTime);
  for (const f of captured.fundingCursors ?? [])
    c.fundingCursors.set(fundingCursorKey(f.symbol, f.fundAccountId, f.fundingTime), f);
  for (const [fundAccountId, symbol, markPrice] of captured.marks ?? [])
    c.marks.set(fundingKey(symbol, fundAccountId), new Money(markPrice));
  for (const [accountId, amount] of captured.uncovered ?? []) c.uncovered.set(accountId, new Money(amount));
  for (const a of captured.adlPending ?? [])
    c.adlPending.set(a.adlId, {
      ...a,
      quantity: new Money(a.quantity),
      value: new Money(a.value),
      mark: new Money(a.mark),
      offers: a.offers.map((o) => ({ ...o, score: new Money(o.score), quantity: new Money(o.quantity) })),
    });
  for (const r of captured.adlReserved ?? [])
    c.adlReserved.set(adlReservationKey(r.adlId, r.fundAccountId), {
      ...r,
      entries: r.entries.map((e) => ({ ...e, quantity: new Money(e.quantity) })),
    });
}

/** The accounts' per-account maps, as entries in their order (an eviction order is kept), looked up by account. */
export function entriesOf<V>(perAccount: ReadonlyMap<string, ReadonlyMap<string, V>>, accountIds: ReadonlySet<string>) {
  const entries: [string, [string, V][]][] = [];
  for (const accountId of accountIds) {
    const held = perAccount.get(accountId);
    if (held) entries.push([accountId, [...held]]);
  }
  return entries;
}

/** The entries of a per-fund map (fundings, marks) that belong to the accounts, keyed `symbol|fundAccountId` (see fundingKey). */
function perFundOf(
  entries: ReadonlyMap<string, unknown>,
  accountIds: ReadonlySet<string>,
): { key: string; symbol: string; fundAccountId: string }[] {
  const found: { key: string; symbol: string; fundAccountId: string }[] = [];
  for (const key of entries.keys()) {
    const cut = key.lastIndexOf('|');
    const fundAccountId = key.slice(cut + 1);
    if (accountIds.has(fundAccountId)) found.push({ key, symbol: key.slice(0, cut), fundAccountId });
  }
  return found;
}
