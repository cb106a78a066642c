import type {
  AdlCandidate,
  AdlCandidates,
  AdlLeg,
  ApplyAdl,
  CollectAdlCandidates,
  ContractConfig,
  ContractEvent,
  DeleveragedCounterparty,
  FlowEntry,
  PositionAfter,
  PositionSide,
} from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import {
  balanceAfter,
  type ContractContext,
  flowEntry,
  internal,
  ownedBy,
  positionAfter,
  requireContract,
  roundDown,
  totalOf,
} from './contract-decision';
import { ContractDraft } from './contract-draft';
import { deleveragedCounterparty } from './contract-deleveraging';
import { settleClose, settleFundClose } from './contract-fills';
import { bankruptcyValue, unrealisedPnl } from './contract-risk';
import {
  type AdlOffer,
  type AdlPending,
  adlReservationKey,
  type ContractsState,
  fundingKey,
  peekContractBalance,
  positionKey,
  type PositionState,
} from './contract-state';

/*
 * Auto-deleveraging across ledger partitions. A partition decides only about its own accounts
 * (ARCHITECTURE rule 1), so the one whose fund took a bankrupt position over (the requester) asks
 * the others by command: each reserves its best opposite positions and answers; when all have
 * answered the requester merges the answers, keeps the legs it takes and tells each partition
 * which of its reservations close (at the requester's share of the bankruptcy value) and which are
 * released. A round that leaves some while a partition held positions for another running ADL
 * asks again for the rest. Every step is an event of the deciding partition's journal; the
 * commands between partitions are derived from those events (adl-commands.ts).
 */

function oppositeOf(side: PositionSide): PositionSide {
  return side === 'LONG' ? 'SHORT' : 'LONG';
}

/** Whether the ledger has other partitions to deleverage against. */
export function deleveragesAcross(ctx: ContractContext): boolean {
  return (ctx.partitions?.count ?? 1) > 1;
}

/** Whether an ADL holds part of the position: a liquidation of it waits until the ADL releases it. */
export function reservedForAdl(state: ContractsState, position: PositionState): boolean {
  for (const r of state.adlReserved.values())
    if (
      r.symbol === position.symbol &&
      r.side === position.side &&
      r.entries.some((e) => e.accountId === position.accountId)
    )
      return true;
  return false;
}

/**
 * The partition's opposite positions an ADL of `quantity` takes, best first: unrealised PnL at the
 * requester's mark × leverage (one mark for every partition, so scores compare), ties by account.
 * Only what no close order claims is offered (size − closing), and funds are not candidates (their
 * positions go through the book). The reserved part joins `closing`: close orders cannot claim it.
 */
function reserveCandidates(
  state: ContractsState,
  symbol: string,
  side: PositionSide,
  quantity: Money,
  mark: Money,
  config: ContractConfig,
  ctx: ContractContext,
): { candidates: AdlCandidate[]; reserved: PositionAfter[]; heldForOthers: string } {
  const ranked = [...state.positions.values()]
    .filter(
      (q) =>
        q.symbol === symbol &&
        q.side === side &&
        q.size.gt(q.closing) &&
        q.accountId !== ctx.insurance.accountId &&
        ownedBy(ctx, q.accountId),
    )
    .map((q) => ({ q, score: unrealisedPnl(q, config, mark).times(q.leverage) }))
    .sort((a, b) => b.score.cmp(a.score) || (a.q.accountId < b.q.accountId ? -1 : 1));
  const candidates: AdlCandidate[] = [];
  const reserved: PositionAfter[] = [];
  let left = quantity;
  for (const { q, score } of ranked) {
    if (left.lte(0)) break;
    const take = Money.min(q.size.minus(q.closing), left);
    candidates.push({ accountId: q.accountId, score: score.toFixed(), quantity: take.toFixed() });
    reserved.push(positionAfter({ ...q, closing: q.closing.plus(take) }, config, ctx));
    left = left.minus(take);
  }
  return { candidates, reserved, heldForOthers: heldForOthers(state, symbol, side, ctx).toFixed() };
}

/** What this partition has reserved of the symbol's `side` for ADLs still running: what a new one cannot have yet. */
function heldForOthers(state: ContractsState, symbol: string, side: PositionSide, ctx: ContractContext): Money {
  let held = ZERO;
  for (const r of state.adlReserved.values())
    if (r.fundAccountId === ctx.insurance.accountId && r.symbol === symbol && r.side === side)
      for (const e of r.entries) held = held.plus(e.quantity);
  return held;
}

/** One round of an ADL: what the fund keeps awaiting it, at what value, ranked at which mark. */
type AdlRound = Pick<AdlPending, 'adlId' | 'symbol' | 'side' | 'quantity' | 'value' | 'mark' | 'round'>;

/**
 * After the fund took `bankrupt` over (its PositionLiquidated already in the draft): its first
 * ADL round, for the whole position at its bankruptcy value.
 */
export function requestAdl(
  draft: ContractDraft,
  bankrupt: PositionState,
  config: ContractConfig,
  mark: Money,
  adlId: string,
  ctx: ContractContext,
): void {
  const { symbol, side, size: quantity } = bankrupt;
  requestAdlRound(
    draft,
    { adlId, symbol, side, quantity, value: bankruptcyValue(bankrupt), mark, round: 1 },
    config,
    ctx,
  );
}

/**
 * Keeps the round's quantity awaiting ADL (in the fund position's `closing`, so its IOC closes
 * leave it out), reserves this partition's own candidates and asks every other partition for theirs.
 */
function requestAdlRound(draft: ContractDraft, r: AdlRound, config: ContractConfig, ctx: ContractContext): void {
  const { index, count } = ctx.partitions!;
  const fund = draft.state.positions.get(positionKey(ctx.insurance.accountId, r.symbol, r.side))!;
  const own = reserveCandidates(draft.state, r.symbol, oppositeOf(r.side), r.quantity, r.mark, config, ctx);
  draft.emit({
    type: 'AdlRequested',
    payload: {
      adlId: r.adlId,
      symbol: r.symbol,
      side: r.side,
      quantity: r.quantity.toFixed(),
      bankruptcyValue: r.value.toFixed(),
      markPrice: r.mark.toFixed(),
      requester: index,
      partitions: Array.from({ length: count }, (_, p) => p).filter((p) => p !== index),
      round: r.round,
      fundPosition: positionAfter({ ...fund, closing: fund.closing.plus(r.quantity) }, config, ctx),
      ...own,
    },
  });
}

/** Another partition's request: this partition reserves its candidates and answers (once per ADL while it lasts). */
export function collectAdlCandidates(
  command: CollectAdlCandidates,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  const config = requireContract(ctx, p.symbol);
  if (state.adlReserved.has(adlReservationKey(p.adlId, ctx.insurance.accountId))) return [];
  const side = oppositeOf(p.side);
  const own = reserveCandidates(state, p.symbol, side, new Money(p.quantity), new Money(p.markPrice), config, ctx);
  return [
    {
      type: 'AdlCandidatesReserved',
      payload: {
        adlId: p.adlId,
        fundAccountId: ctx.insurance.accountId,
        requester: p.requester,
        from: ctx.partitions?.index ?? 0,
        symbol: p.symbol,
        side,
        ...own,
      },
    },
  ];
}

/** An answer to this partition's request; the last one resolves the ADL in the same decision. */
export function receiveAdlCandidates(
  command: AdlCandidates,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const { adlId, from, candidates, heldForOthers: held } = command.payload;
  const pending = state.adlPending.get(adlId);
  if (!pending || pending.fundAccountId !== ctx.insurance.accountId || !pending.awaiting.includes(from)) return [];
  const draft = new ContractDraft(state);
  draft.emit({ type: 'AdlCandidatesReceived', payload: { adlId, from, candidates, heldForOthers: held } });
  const now = draft.state.adlPending.get(adlId)!;
  if (now.awaiting.length === 0) resolveAdl(draft, now, ctx);
  return draft.events;
}

/** The legs over all partitions' offers, best first (score desc, account id), up to the quantity; each at its share of the bankruptcy value. */
function legsOf(pending: AdlPending, ctx: ContractContext): AdlLeg[] {
  const offers = [...pending.offers].sort(
    (a: AdlOffer, b: AdlOffer) => b.score.cmp(a.score) || (a.accountId < b.accountId ? -1 : 1),
  );
  const legs: AdlLeg[] = [];
  let [left, valueLeft] = [pending.quantity, pending.value];
  for (const offer of offers) {
    if (left.lte(0)) break;
    const quantity = Money.min(offer.quantity, left);
    // Rounded down, the last share of the whole quantity takes the rest: the shares add up to the value.
    const value = quantity.eq(left) ? valueLeft : roundDown(ctx, pending.value.times(quantity).div(pending.quantity));
    legs.push({
      partition: offer.partition,
      accountId: offer.accountId,
      quantity: quantity.toFixed(),
      value: value.toFixed(),
    });
    left = left.minus(quantity);
    valueLeft = valueLeft.minus(value);
  }
  return legs;
}

/**
 * Every partition answered: the fund closes what the legs take at their values (SETTLEMENT flows),
 * what they do not take goes back to what its IOC closes offer, and this partition applies its own
 * legs as every other partition applies its ApplyAdl.
 */
function resolveAdl(draft: ContractDraft, pending: AdlPending, ctx: ContractContext): void {
  const config = requireContract(ctx, pending.symbol);
  const legs = legsOf(pending, ctx);
  const key = positionKey(pending.fundAccountId, pending.symbol, pending.side);
  let fund = draft.state.positions.get(key)!;
  let balance = peekContractBalance(draft.state, pending.fundAccountId);
  const flows: FlowEntry[] = [];
  let [taken, pnl, uncovered] = [ZERO, ZERO, ZERO];
  for (const leg of legs) {
    const settled = settleFundClose(
      fund,
      balance,
      { value: new Money(leg.value), quantity: new Money(leg.quantity), fee: ZERO },
      ctx,
    );
    [fund, balance] = [settled.position, settled.balance];
    [taken, pnl, uncovered] = [taken.plus(leg.quantity), pnl.plus(settled.pnl), uncovered.plus(settled.uncovered)];
    if (!settled.pnl.isZero())
      flows.push(flowEntry(ctx, flows.length, pending.fundAccountId, 'SETTLEMENT', settled.pnl, totalOf(balance)));
  }
  const released = { ...fund, closing: fund.closing.minus(pending.quantity.minus(taken)) };
  const valueTaken = legs.reduce((sum, l) => sum.plus(l.value), ZERO);
  const index = ctx.partitions?.index ?? 0;
  draft.emit({
    type: 'AdlResolved',
    payload: {
      adlId: pending.adlId,
      symbol: pending.symbol,
      side: pending.side,
      legs,
      partitions: Array.from({ length: ctx.partitions?.count ?? 1 }, (_, p) => p).filter((p) => p !== index),
      taken: taken.toFixed(),
      pnl: pnl.toFixed(),
      uncovered: uncovered.toFixed(),
      fundPosition: positionAfter(released, config, ctx),
      fundBalance: balanceAfter(pending.fundAccountId, balance),
      flows,
    },
  });
  const own = legs.filter((l) => l.partition === index);
  const applied = {
    type: 'ApplyAdl',
    v: 1,
    id: '',
    ts: ctx.now,
    payload: { adlId: pending.adlId, symbol: pending.symbol, side: oppositeOf(pending.side), legs: own },
  } as const;
  draft.emit(...applyAdl(applied, draft.state, ctx));
  // Positions other ADLs held while this one asked may be free once they end: another round for the rest.
  const left = pending.quantity.minus(taken);
  if (left.gt(0) && pending.contended && pending.round < MAX_ADL_ROUNDS) {
    const mark = draft.state.marks.get(fundingKey(pending.symbol, pending.fundAccountId)) ?? pending.mark;
    const next = { ...pending, quantity: left, value: pending.value.minus(valueTaken), mark, round: pending.round + 1 };
    requestAdlRound(draft, { ...next, adlId: `${baseAdlId(pending.adlId)}#${next.round}` }, config, ctx);
  }
}

/**
 * How many rounds one bankrupt position's ADL may take. Each round that was contended (a partition
 * held positions for another running ADL) asks again for the rest; rounds end when no partition
 * holds any, and this bounds them whatever happens.
 */
const MAX_ADL_ROUNDS = 16;

function baseAdlId(adlId: string): string {
  const cut = adlId.lastIndexOf('#');
  return cut < 0 ? adlId : adlId.slice(0, cut);
}

/**
 * The requester's legs for this partition: each reserved position closes its leg at the leg's
 * value, as the bankrupt position's counterparty (its PnL a SETTLEMENT flow); the rest of the
 * reservation is released. Nothing once the reservation is gone (a repeat).
 */
export function applyAdl(command: ApplyAdl, state: ContractsState, ctx: ContractContext): ContractEvent[] {
  const p = command.payload;
  const reservation = state.adlReserved.get(adlReservationKey(p.adlId, ctx.insurance.accountId));
  if (!reservation) return [];
  const config = requireContract(ctx, reservation.symbol);
  const flows: FlowEntry[] = [];
  const counterparties: DeleveragedCounterparty[] = [];
  const released: PositionAfter[] = [];
  for (const entry of reservation.entries) {
    const position = state.positions.get(positionKey(entry.accountId, reservation.symbol, reservation.side))!;
    const leg = p.legs.find((l) => l.accountId === entry.accountId);
    const quantity = leg ? new Money(leg.quantity) : ZERO;
    if (quantity.gt(entry.quantity) || position.closing.lt(entry.quantity))
      throw internal(`ADL ${p.adlId} takes more of account ${entry.accountId} than it reserved`);
    if (!leg || quantity.isZero()) {
      released.push(positionAfter({ ...position, closing: position.closing.minus(entry.quantity) }, config, ctx));
      continue;
    }
    const value = new Money(leg.value);
    const settled = settleClose(
      position,
      peekContractBalance(state, entry.accountId),
      { value, quantity, fee: ZERO },
      ctx,
    );
    // The reservation held the whole entry as closing; what this leg did not take is free again.
    const after = { ...settled.position, closing: settled.position.closing.minus(entry.quantity.minus(quantity)) };
    const counterparty = { accountId: entry.accountId, side: reservation.side, quantity, value };
    counterparties.push(deleveragedCounterparty(counterparty, settled, after, flows, config, ctx));
  }
  return [
    {
      type: 'AdlApplied',
      payload: {
        adlId: p.adlId,
        fundAccountId: ctx.insurance.accountId,
        symbol: reservation.symbol,
        counterparties,
        released,
        flows,
      },
    },
  ];
}
