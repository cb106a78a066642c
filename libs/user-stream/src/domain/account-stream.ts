import {
  type AccountFlags,
  type BalanceAfter,
  type ContractJournalEvent,
  isContractJournalEvent,
  type LedgerJournalEvent,
  type LedgerOrderRecord,
} from '@exchange/contracts';
import type { ContractOrderView } from './contract-orders-seen';
import { contractFlagsOf, contractFramesOf, type StreamedContracts } from './contract-stream';
import { executionReport, transitionOf } from './execution-report';
import { streamedBalance } from './streamed-balance';
import type { BalanceChange, StreamFrame } from './stream-frames';

/** What one replica knows of one account's stream. */
export interface AccountStreamState {
  accountId: string;
  /** outboundAccountInfo's T, W and D. */
  flags: AccountFlags;
  /** The user's ledger sequence already streamed (or already in the ledger's tables when the stream began). */
  lastSeq: number;
  /** The last E sent: E is strictly increasing per account. */
  lastE: number;
  /** The contracts account whose events this stream carries, if any. */
  contracts?: StreamedContracts;
}

export interface StreamStep {
  state: AccountStreamState;
  /** In sending order: the executionReport first, then the outboundAccountInfo; one event's frames share E. */
  frames: StreamFrame[];
}

/** The event's time, unless that would not move past the last E sent: then one more than it. */
export function nextEventTime(lastE: number, ts: number): number {
  return ts > lastE ? ts : lastE + 1;
}

/**
 * What one ledger event of the account's user means for the account's stream. Events the stream
 * has passed (the user's sequence says so: a redelivery, or a change the ledger's tables already
 * held when the stream began) give nothing. Any event that carries this account's balances gives
 * an outboundAccountInfo of the changed ones, so new kinds of ledger events need nothing here.
 * A contracts event is rendered with the order it changed as ContractOrderMemory tracks it, a spot
 * order event with its order as SpotOrderMemory tracks it (the events say only what changed).
 */
export function streamLedgerEvent(
  state: AccountStreamState,
  event: LedgerJournalEvent,
  precisionOf: (asset: string) => number,
  contractOrder?: ContractOrderView,
  spotOrder?: LedgerOrderRecord,
): StreamStep {
  if (event.payload.seq <= state.lastSeq) return { state, frames: [] };
  const passed = { ...state, lastSeq: event.payload.seq };
  if (isContractJournalEvent(event))
    return withEventTime(passed, event.ts, contractFramesOf(state, event, contractOrder, precisionOf('USDT')));
  if (event.type === 'AccountFlagsSet') {
    const contractFlags = contractFlagsOf(state, event);
    if (contractFlags)
      return withEventTime({ ...passed, contracts: contractFlags.contracts }, event.ts, contractFlags.frames);
  }
  return streamAccountEvent(state, passed, event, precisionOf, spotOrder);
}

function streamAccountEvent(
  state: AccountStreamState,
  passed: AccountStreamState,
  event: Exclude<LedgerJournalEvent, ContractJournalEvent>,
  precisionOf: (asset: string) => number,
  spotOrder: LedgerOrderRecord | undefined,
): StreamStep {
  const flagsSet = event.type === 'AccountFlagsSet' && event.payload.accountId === state.accountId;
  const flags = flagsSet
    ? { canTrade: event.payload.canTrade, canWithdraw: event.payload.canWithdraw, canDeposit: event.payload.canDeposit }
    : state.flags;
  const order = spotOrder?.accountId === state.accountId ? spotOrder : undefined;
  const transition = order && transitionOf(event, order);
  const balances =
    'balances' in event.payload ? changedBalances(event.payload.balances, state.accountId, precisionOf) : [];
  if (!transition && balances.length === 0 && !flagsSet) return { state: { ...passed, flags }, frames: [] };
  return withEventTime({ ...passed, flags }, event.ts, (E) => {
    const frames: StreamFrame[] = [];
    if (order && transition) frames.push(executionReport(order, transition, E));
    if (balances.length > 0 || flagsSet)
      frames.push({
        e: 'outboundAccountInfo',
        E,
        T: flags.canTrade,
        W: flags.canWithdraw,
        D: flags.canDeposit,
        B: balances,
      });
    return frames;
  });
}

/** The step of an event that gives frames (all under one E, the next after the last sent) or none. */
function withEventTime(
  state: AccountStreamState,
  ts: number,
  frames: ((E: number) => StreamFrame[]) | undefined,
): StreamStep {
  if (!frames) return { state, frames: [] };
  const E = nextEventTime(state.lastE, ts);
  return { state: { ...state, lastE: E }, frames: frames(E) };
}

function changedBalances(
  balances: readonly BalanceAfter[],
  accountId: string,
  precisionOf: (asset: string) => number,
): BalanceChange[] {
  const changes: BalanceChange[] = [];
  for (const b of balances) {
    if (b.accountId !== accountId) continue;
    changes.push(streamedBalance(b, precisionOf(b.asset)));
  }
  return changes;
}

/**
 * A contracts event of another user (a ledger partition's system user) that names this stream's
 * contracts account: its frames, whatever this user's sequence (the event is not in it).
 */
export function streamNamedContractEvent(
  state: AccountStreamState,
  event: ContractJournalEvent,
  precisionOf: (asset: string) => number,
  contractOrder?: ContractOrderView,
): StreamStep {
  return withEventTime(state, event.ts, contractFramesOf(state, event, contractOrder, precisionOf('USDT')));
}
