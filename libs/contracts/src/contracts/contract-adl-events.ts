import type { FlowEntry } from '../ledger/ledger-events';
import type { AdlCandidate } from './contract-adl-commands.v1';
import type { PositionSide } from './contract-commands.v1';
import type { ContractBalanceAfter, PositionAfter } from './contract-events';
import type { DeleveragedCounterparty } from './contract-risk-events';

/**
 * The requesting partition's fund took a bankrupt position over (the PositionLiquidated before this
 * event) and keeps `quantity` of it awaiting ADL (not offered to the book: `fundPosition`'s
 * available size leaves it out). It asked `partitions` for candidates and reserved its own
 * (`candidates`, the positions as reserved in `reserved`).
 */
export interface AdlRequested {
  type: 'AdlRequested';
  payload: {
    adlId: string;
    symbol: string;
    /** The bankrupt position's side: the fund's; candidates hold the opposite. */
    side: PositionSide;
    quantity: string;
    bankruptcyValue: string;
    markPrice: string;
    requester: number;
    partitions: number[];
    /** 1 for a bankrupt position's first round; a contended round that left some asks again (id `<first>#<round>`). */
    round: number;
    fundPosition: PositionAfter;
    candidates: AdlCandidate[];
    reserved: PositionAfter[];
    /** What this partition held for other running ADLs of the symbol's opposite side. */
    heldForOthers: string;
  };
}

/** A partition reserved opposite positions for another partition's ADL (their available size leaves it out). */
export interface AdlCandidatesReserved {
  type: 'AdlCandidatesReserved';
  payload: {
    adlId: string;
    /** The reserving partition's fund account: whose reservation this is. */
    fundAccountId: string;
    requester: number;
    from: number;
    symbol: string;
    side: PositionSide;
    candidates: AdlCandidate[];
    reserved: PositionAfter[];
    heldForOthers: string;
  };
}

/** The requester kept one partition's answer. */
export interface AdlCandidatesReceived {
  type: 'AdlCandidatesReceived';
  payload: { adlId: string; from: number; candidates: AdlCandidate[]; heldForOthers: string };
}

/** One leg the requester chose: `quantity` of a partition's account closes at `value`. */
export interface AdlLeg {
  partition: number;
  accountId: string;
  quantity: string;
  value: string;
}

/**
 * Every partition answered: the legs taken from the merged candidates (score desc, account id),
 * and the fund's side of them, closed at the same values (its PnL a SETTLEMENT flow). What no leg
 * took stays with the fund, offered to the book again. `partitions` get an ApplyAdl each.
 */
export interface AdlResolved {
  type: 'AdlResolved';
  payload: {
    adlId: string;
    symbol: string;
    side: PositionSide;
    legs: AdlLeg[];
    partitions: number[];
    taken: string;
    pnl: string;
    uncovered: string;
    fundPosition: PositionAfter;
    fundBalance: ContractBalanceAfter;
    flows: FlowEntry[];
  };
}

/** A partition closed its legs at their values and released the rest of its reservation. */
export interface AdlApplied {
  type: 'AdlApplied';
  payload: {
    adlId: string;
    fundAccountId: string;
    symbol: string;
    counterparties: DeleveragedCounterparty[];
    released: PositionAfter[];
    flows: FlowEntry[];
  };
}

export type ContractAdlEvent = AdlRequested | AdlCandidatesReserved | AdlCandidatesReceived | AdlResolved | AdlApplied;
