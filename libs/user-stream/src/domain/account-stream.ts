import Decimal from 'decimal.js';
import type { AccountFlags, BalanceAfter, LedgerJournalEvent } from '@exchange/contracts';
import { executionReport, transitionOf } from './execution-report';
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
 */
export function streamLedgerEvent(state: AccountStreamState, event: LedgerJournalEvent, precisionOf: (asset: string) => number): StreamStep {
  if (event.payload.seq <= state.lastSeq) return { state, frames: [] };
  const flagsSet = event.type === 'AccountFlagsSet' && event.payload.accountId === state.accountId;
  const flags = flagsSet ? { canTrade: event.payload.canTrade, canWithdraw: event.payload.canWithdraw, canDeposit: event.payload.canDeposit } : state.flags;
  const passed = { ...state, flags, lastSeq: event.payload.seq };

  // Spot orders only here (contract orders hold no reservedAsset; their stream events are contractExecutionReport's).
  const order = 'order' in event.payload && 'reservedAsset' in event.payload.order && event.payload.order.accountId === state.accountId ? event.payload.order : undefined;
  const transition = order && transitionOf(event);
  const balances = 'balances' in event.payload ? changedBalances(event.payload.balances, state.accountId, precisionOf) : [];
  if (!transition && balances.length === 0 && !flagsSet) return { state: passed, frames: [] };

  const E = nextEventTime(state.lastE, event.ts);
  const frames: StreamFrame[] = [];
  if (order && transition) frames.push(executionReport(order, transition, E));
  if (balances.length > 0 || flagsSet) frames.push({ e: 'outboundAccountInfo', E, T: flags.canTrade, W: flags.canWithdraw, D: flags.canDeposit, B: balances });
  return { state: { ...passed, lastE: E }, frames };
}

function changedBalances(balances: readonly BalanceAfter[], accountId: string, precisionOf: (asset: string) => number): BalanceChange[] {
  const changes: BalanceChange[] = [];
  for (const b of balances) {
    if (b.accountId !== accountId) continue;
    changes.push(streamedBalance(b, precisionOf(b.asset)));
  }
  return changes;
}

/** A balance as outboundAccountInfo's B carries it: free and locked at the asset's precision, rounded down (never more than the ledger holds). */
export function streamedBalance(balance: Pick<BalanceAfter, 'asset' | 'free' | 'locked'>, places: number): BalanceChange {
  return { a: balance.asset, f: new Decimal(balance.free).toFixed(places, Decimal.ROUND_DOWN), l: new Decimal(balance.locked).toFixed(places, Decimal.ROUND_DOWN) };
}
