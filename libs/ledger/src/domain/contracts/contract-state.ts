import type {
  AdlCandidate,
  ContractAdlEvent,
  ContractBalanceAfter,
  ContractEvent,
  ContractOrderRecord,
  PositionAfter,
  PositionSide,
} from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { PriceHeap } from './price-heap';

/** A contracts account's USDT: free, locked by open OPEN orders, and held as margin by its positions. */
export interface ContractBalance {
  free: Money;
  locked: Money;
  positionMargin: Money;
}

/**
 * One side of one symbol of one account (hedge mode: a LONG and a SHORT may coexist). The entry
 * value, not an average price, is what is kept: it is exact, so realised PnL is exact too.
 */
export interface PositionState {
  accountId: string;
  symbol: string;
  side: PositionSide;
  size: Money;
  closing: Money;
  opening: Money;
  entryValue: Money;
  margin: Money;
  realizedPnl: Money;
  leverage: Money;
  /** The liquidation price as the last event reported it ("0": nothing liquidates it). */
  flp: Money;
}

/**
 * An open order as the fold keeps it: its record, and whether a cancel is on its way to the engine
 * (a user's or a liquidation's), so a liquidation does not request it twice and waits for its end;
 * `cancelReason` when a liquidation asked, so the order's end says why rather than the engine's USER.
 */
export type OpenContractOrder = ContractOrderRecord & { cancelRequested?: true; cancelReason?: 'LIQUIDATION' };

/** The order's record as events carry it, without the fold's marks. */
export function orderRecordOf(order: OpenContractOrder): ContractOrderRecord {
  const { cancelRequested: _mark, cancelReason: _reason, ...record } = order;
  return record;
}

/**
 * The contracts fold. Like the ledger's own state it is mutable (evolve applies an event in
 * place, for speed on the order path); decide only reads it.
 */
export interface ContractsState {
  balances: Map<string, ContractBalance>;
  positions: Map<string, PositionState>;
  /** Open orders only: a final order leaves the fold (its history is a projection's). */
  orders: Map<string, OpenContractOrder>;
  /** The open orders of each position (by positionKey): what a liquidation cancels, without a scan. */
  positionOrders: Map<string, ReadonlySet<string>>;
  /**
   * Per account, the keys (positionKey) of its positions and of the positions its open orders are
   * for (derived: written only by setPosition, setOrder and removeOrder), so a snapshot of an account
   * finds them without walking every position and order of the partition.
   */
  accountPositions: Map<string, ReadonlySet<string>>;
  /** The last funding time settled per `symbol|fund account` (one fund account per ledger partition): SettleFunding is idempotent per (symbol, fundingTime) in each. */
  fundings: Map<string, number>;
  /**
   * The funding settlements decided in parts, per (symbol, fund account, fundingTime) (see
   * fundingCursorKey): the next part pays the positions after `after`, and only the
   * ContinueFunding numbered `part` does. Per fundingTime, so a later fix decided before an
   * earlier one's next part leaves that part its cursor. Absent when no settlement is part-way.
   */
  fundingCursors: Map<string, FundingCursor>;
  /** The last mark price consumed per `symbol|fund account` (each partition its own): what modifyMargin's removals are checked at. */
  marks: Map<string, Money>;
  /** Liquidation prices per `symbol|side` (LONG highest first, SHORT lowest first): derived, rebuilt by replay. */
  liquidation: Map<string, PriceHeap>;
  /** STOP orders' trigger prices per `symbol|BUY` (lowest first) and `symbol|SELL` (highest first): derived. */
  stops: Map<string, PriceHeap>;
  /**
   * Losses no margin could pay (see ContractOrderFilled.uncovered), per account whose settlement
   * left them unpaid (a position's account, or a fund share that could not pay a funding): what
   * the insurance fund owes. Per account, so each ledger partition's snapshot carries its own.
   */
  uncovered: Map<string, Money>;
  /** The ADLs this partition requested and waits on answers for, by adlId (see contract-adl.ts). */
  adlPending: Map<string, AdlPending>;
  /** What each partition reserved for an ADL, by `adlId|its fund account` (one state may hold several partitions). */
  adlReserved: Map<string, AdlReservation>;
}

/** An opposite position offered to an ADL: by which partition, its rank, and how much of it is reserved. */
export interface AdlOffer {
  partition: number;
  accountId: string;
  score: Money;
  quantity: Money;
}

/**
 * A requested ADL: the fund took `quantity` of `side` over at `value` (the bankruptcy value) and
 * keeps it out of its closing orders; `awaiting` are the partitions that have not answered yet.
 */
export interface AdlPending {
  adlId: string;
  fundAccountId: string;
  symbol: string;
  side: PositionSide;
  quantity: Money;
  value: Money;
  /** The mark the round ranks at; a later round ranks at the partition's kept mark. */
  mark: Money;
  /** 1 for the bankrupt position's first; a contended round asks again for the rest. */
  round: number;
  /** Whether any partition (this one included) held positions for another running ADL when it answered. */
  contended: boolean;
  awaiting: number[];
  offers: AdlOffer[];
}

/** The positions one partition reserved for an ADL: held in their `closing`, until the requester's ApplyAdl. */
export interface AdlReservation {
  adlId: string;
  fundAccountId: string;
  symbol: string;
  /** The reserved positions' side: opposite to the bankrupt one. */
  side: PositionSide;
  entries: { accountId: string; quantity: Money }[];
}

export function adlReservationKey(adlId: string, fundAccountId: string): string {
  return `${adlId}|${fundAccountId}`;
}

export interface FundingCursor {
  symbol: string;
  fundAccountId: string;
  fundingTime: number;
  after: string;
  part: number;
}

export function fundingCursorKey(symbol: string, fundAccountId: string, fundingTime: number): string {
  return `${symbol}|${fundAccountId}|${fundingTime}`;
}

export function initialContractsState(): ContractsState {
  return {
    balances: new Map(),
    positions: new Map(),
    orders: new Map(),
    positionOrders: new Map(),
    accountPositions: new Map(),
    fundings: new Map(),
    fundingCursors: new Map(),
    marks: new Map(),
    liquidation: new Map(),
    stops: new Map(),
    uncovered: new Map(),
    adlPending: new Map(),
    adlReserved: new Map(),
  };
}

/** What no margin paid, over every account of the fold. */
export function totalUncovered(state: ContractsState): Money {
  let total = ZERO;
  for (const amount of state.uncovered.values()) total = total.plus(amount);
  return total;
}

function addUncovered(state: ContractsState, accountId: string, amount: string): void {
  if (new Money(amount).isZero()) return;
  state.uncovered.set(accountId, (state.uncovered.get(accountId) ?? ZERO).plus(amount));
}

export function fundingKey(symbol: string, fundAccountId: string): string {
  return `${symbol}|${fundAccountId}`;
}

export function positionKey(accountId: string, symbol: string, side: PositionSide): string {
  return `${accountId}|${symbol}|${side}`;
}

export function peekContractBalance(state: ContractsState, accountId: string): ContractBalance {
  return state.balances.get(accountId) ?? { free: ZERO, locked: ZERO, positionMargin: ZERO };
}

export function peekPosition(
  state: ContractsState,
  accountId: string,
  symbol: string,
  side: PositionSide,
): PositionState {
  return (
    state.positions.get(positionKey(accountId, symbol, side)) ?? {
      accountId,
      symbol,
      side,
      size: ZERO,
      closing: ZERO,
      opening: ZERO,
      entryValue: ZERO,
      margin: ZERO,
      realizedPnl: ZERO,
      leverage: ZERO,
      flp: ZERO,
    }
  );
}

function heapOf(heaps: Map<string, PriceHeap>, key: string, order: 'asc' | 'desc'): PriceHeap {
  let heap = heaps.get(key);
  if (!heap) heaps.set(key, (heap = new PriceHeap(order)));
  return heap;
}

export function setBalance(state: ContractsState, b: ContractBalanceAfter): void {
  state.balances.set(b.accountId, {
    free: new Money(b.free),
    locked: new Money(b.locked),
    positionMargin: new Money(b.positionMargin),
  });
}

export function setPosition(state: ContractsState, p: PositionAfter): void {
  const size = new Money(p.size);
  const key = positionKey(p.accountId, p.symbol, p.side);
  const flp = new Money(p.flp);
  if (!state.positions.has(key)) keepAccountPosition(state, p.accountId, key);
  state.positions.set(key, {
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    size,
    closing: size.minus(p.available),
    opening: new Money(p.opening),
    entryValue: new Money(p.entryValue),
    margin: new Money(p.margin),
    realizedPnl: new Money(p.realizedPnl),
    leverage: new Money(p.leverage),
    flp,
  });
  const heap = heapOf(state.liquidation, `${p.symbol}|${p.side}`, p.side === 'LONG' ? 'desc' : 'asc');
  if (size.gt(0) && flp.gt(0)) heap.upsert(key, flp);
  else heap.remove(key);
}

function orderPositionKey(o: ContractOrderRecord): string {
  return positionKey(o.accountId, o.symbol, o.side === 'BUY_OPEN' || o.side === 'SELL_CLOSE' ? 'LONG' : 'SHORT');
}

function stopHeap(state: ContractsState, o: ContractOrderRecord): PriceHeap {
  const buy = o.side.startsWith('BUY');
  return heapOf(state.stops, `${o.symbol}|${buy ? 'BUY' : 'SELL'}`, buy ? 'asc' : 'desc');
}

export function setOrder(state: ContractsState, o: OpenContractOrder): void {
  const key = orderPositionKey(o);
  if (!state.orders.has(o.orderId)) {
    state.positionOrders.set(key, new Set([...(state.positionOrders.get(key) ?? []), o.orderId]));
    keepAccountPosition(state, o.accountId, key);
  }
  state.orders.set(o.orderId, o);
  if (o.orderType === 'STOP') stopHeap(state, o).upsert(o.orderId, new Money(o.triggerPrice!));
  else stopHeap(state, o).remove(o.orderId);
}

function removeOrder(state: ContractsState, orderId: string): void {
  const o = state.orders.get(orderId);
  if (!o) return;
  const key = orderPositionKey(o);
  // A new set rather than a change in place: a draft's overlay must never reach into the state's sets.
  const rest = new Set(state.positionOrders.get(key));
  rest.delete(orderId);
  if (rest.size === 0) state.positionOrders.delete(key);
  else state.positionOrders.set(key, rest);
  if (rest.size === 0 && !state.positions.has(key)) dropAccountPosition(state, o.accountId, key);
  stopHeap(state, o).remove(orderId);
  state.orders.delete(orderId);
}

// New sets rather than changes in place, as for positionOrders: a draft reads through to the state's.
function keepAccountPosition(state: ContractsState, accountId: string, key: string): void {
  const keys = state.accountPositions.get(accountId);
  if (!keys?.has(key)) state.accountPositions.set(accountId, new Set([...(keys ?? []), key]));
}

function dropAccountPosition(state: ContractsState, accountId: string, key: string): void {
  const rest = new Set(state.accountPositions.get(accountId));
  rest.delete(key);
  if (rest.size === 0) state.accountPositions.delete(accountId);
  else state.accountPositions.set(accountId, rest);
}

export function evolveContracts(state: ContractsState, event: ContractEvent): ContractsState {
  switch (event.type) {
    case 'ContractAccountCredited':
    case 'ContractAccountDebited':
    case 'InsuranceFundSeeded':
      setBalance(state, event.payload.balance);
      return state;
    case 'ContractOrderPlaced':
      setOrder(state, event.payload.order);
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      return state;
    case 'ContractOrderFilled':
    case 'ContractOrderEnded': {
      const { order: change, balance, position } = event.payload;
      const order = state.orders.get(change.orderId);
      if (change.status === 'NEW' || change.status === 'PARTIALLY_FILLED') {
        if (order)
          setOrder(state, {
            ...order,
            executedQty: change.executedQty,
            marginLeft: change.marginLeft,
            status: change.status,
          });
      } else {
        removeOrder(state, change.orderId);
      }
      setBalance(state, balance);
      setPosition(state, position);
      if (event.type === 'ContractOrderFilled') {
        setBalance(state, event.payload.feeAccount);
        addUncovered(state, event.payload.accountId, event.payload.uncovered);
      }
      return state;
    }
    case 'PositionMarginModified':
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      return state;
    case 'FundingSettled':
      for (const payment of event.payload.payments) {
        setBalance(state, payment.balance);
        setPosition(state, payment.position);
      }
      setBalance(state, event.payload.insurance);
      if (event.payload.clearing) setBalance(state, event.payload.clearing);
      addUncovered(state, event.payload.insurance.accountId, event.payload.uncovered);
      state.fundings.set(
        fundingKey(event.payload.symbol, event.payload.insurance.accountId),
        event.payload.fundingTime,
      );
      // A part ends the cursor of the part before; a FundingContinued after it sets the next.
      state.fundingCursors.delete(
        fundingCursorKey(event.payload.symbol, event.payload.insurance.accountId, event.payload.fundingTime),
      );
      return state;
    case 'FundingContinued': {
      const { symbol, fundAccountId, fundingTime, after, part } = event.payload;
      state.fundingCursors.set(fundingCursorKey(symbol, fundAccountId, fundingTime), {
        symbol,
        fundAccountId,
        fundingTime,
        after,
        part,
      });
      return state;
    }
    case 'LiquidationContinued':
      return state;
    case 'PositionLiquidated':
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      setPosition(state, event.payload.fundPosition);
      return state;
    case 'PositionDeleveraged':
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      for (const c of event.payload.counterparties) {
        setBalance(state, c.balance);
        setPosition(state, c.position);
        addUncovered(state, c.accountId, c.uncovered);
      }
      return state;
    case 'ContractStopTriggered':
      setOrder(state, event.payload.order);
      return state;
    case 'ContractMarkPriced':
      state.marks.set(
        fundingKey(event.payload.symbol, event.payload.fundAccountId),
        new Money(event.payload.markPrice),
      );
      return state;
    case 'ContractCancelRequested': {
      const order = state.orders.get(event.payload.order.orderId);
      const reason = event.payload.reason;
      if (order) setOrder(state, { ...order, cancelRequested: true, ...(reason ? { cancelReason: reason } : {}) });
      return state;
    }
    case 'AdlRequested':
    case 'AdlCandidatesReserved':
    case 'AdlCandidatesReceived':
    case 'AdlResolved':
    case 'AdlApplied':
      evolveAdl(state, event);
      return state;
    default: {
      const unexpected: never = event;
      throw new Error(`contracts: unknown event ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}

function offersOf(partition: number, candidates: readonly AdlCandidate[]): AdlOffer[] {
  return candidates.map((c) => ({
    partition,
    accountId: c.accountId,
    score: new Money(c.score),
    quantity: new Money(c.quantity),
  }));
}

function reserve(
  state: ContractsState,
  p: { adlId: string; symbol: string; candidates: AdlCandidate[]; reserved: PositionAfter[] },
  fundAccountId: string,
  side: PositionSide,
): void {
  for (const position of p.reserved) setPosition(state, position);
  state.adlReserved.set(adlReservationKey(p.adlId, fundAccountId), {
    adlId: p.adlId,
    fundAccountId,
    symbol: p.symbol,
    side,
    entries: p.candidates.map((c) => ({ accountId: c.accountId, quantity: new Money(c.quantity) })),
  });
}

function evolveAdl(state: ContractsState, event: ContractAdlEvent): void {
  switch (event.type) {
    case 'AdlRequested': {
      const p = event.payload;
      const fundAccountId = p.fundPosition.accountId;
      setPosition(state, p.fundPosition);
      reserve(state, p, fundAccountId, p.side === 'LONG' ? 'SHORT' : 'LONG');
      state.adlPending.set(p.adlId, {
        adlId: p.adlId,
        fundAccountId,
        symbol: p.symbol,
        side: p.side,
        quantity: new Money(p.quantity),
        value: new Money(p.bankruptcyValue),
        mark: new Money(p.markPrice),
        round: p.round,
        contended: new Money(p.heldForOthers).gt(0),
        awaiting: p.partitions,
        offers: offersOf(p.requester, p.candidates),
      });
      return;
    }
    case 'AdlCandidatesReserved':
      reserve(state, event.payload, event.payload.fundAccountId, event.payload.side);
      return;
    case 'AdlCandidatesReceived': {
      const { adlId, from, candidates, heldForOthers } = event.payload;
      const pending = state.adlPending.get(adlId);
      if (!pending) return;
      state.adlPending.set(adlId, {
        ...pending,
        contended: pending.contended || new Money(heldForOthers).gt(0),
        awaiting: pending.awaiting.filter((q) => q !== from),
        offers: [...pending.offers, ...offersOf(from, candidates)],
      });
      return;
    }
    case 'AdlResolved':
      setPosition(state, event.payload.fundPosition);
      setBalance(state, event.payload.fundBalance);
      addUncovered(state, event.payload.fundBalance.accountId, event.payload.uncovered);
      state.adlPending.delete(event.payload.adlId);
      return;
    case 'AdlApplied':
      for (const c of event.payload.counterparties) {
        setBalance(state, c.balance);
        setPosition(state, c.position);
        addUncovered(state, c.accountId, c.uncovered);
      }
      for (const position of event.payload.released) setPosition(state, position);
      state.adlReserved.delete(adlReservationKey(event.payload.adlId, event.payload.fundAccountId));
      return;
  }
}
