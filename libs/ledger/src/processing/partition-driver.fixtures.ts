import {
  type LedgerCommand,
  ledgerCommandSchema,
  type LedgerJournalEvent,
  type PositionSide,
} from '@exchange/contracts';
import { continuationsFor } from '../domain/contracts/continuations';
import { positionAfter } from '../domain/contracts/contract-decision';
import { shippedMarkets as markets, T0 } from '../domain/contracts/contract-scenario.fixtures';
import { decide } from '../domain/decide';
import { feeAccountIdOf, flowIdOf } from '../domain/ledger-ids';
import { Money, ZERO } from '../domain/ledger-money';
import { evolve, initialLedgerState, type LedgerState } from '../domain/ledger-state';
import { partitionContextOf } from './partition-context';

export const SWAP = 'BTC-SWAP-USDT';
const config = markets.contract(SWAP)!;

/**
 * One ledger partition (of one) as the processor runs it, without the log: each command decided at
 * the next offset against the fold, its events journaled and folded, and the continuations it
 * writes to its own partition queued behind it, as ledger.commands would deliver them.
 */
export class PartitionDriver {
  readonly state: LedgerState = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  readonly queue: LedgerCommand[] = [];
  /** What each decided command journaled, in order. */
  readonly decided: { command: LedgerCommand; events: LedgerJournalEvent[] }[] = [];
  private offset = 0;

  send(
    type: LedgerCommand['type'],
    payload: Record<string, unknown>,
    id = `c${this.offset + 1}`,
  ): LedgerJournalEvent[] {
    return this.decide(ledgerCommandSchema.parse({ type, v: 1, id, ts: T0 + this.offset, payload }));
  }

  decide(command: LedgerCommand): LedgerJournalEvent[] {
    const offset = this.offset++;
    const events = decide(command, this.state, {
      now: T0 + offset,
      flowId: (k) => flowIdOf(offset, 0, k),
      asset: (n) => markets.asset(n),
      symbol: (s) => markets.symbol(s),
      contract: (s) => markets.contract(s),
      feeAccountId: feeAccountIdOf(0),
      partition: partitionContextOf(this.state, 0, 1, offset),
    });
    if (events[0]?.type === 'CommandRejected') throw new Error(`${command.type} rejected: ${events[0].payload.msg}`);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    this.decided.push({ command, events });
    this.queue.push(...(ledgerCommandSchema.array().parse(continuationsFor(events)) as LedgerCommand[]));
    return events;
  }

  /** Decides the queued continuations until none is left; how many there were. */
  drain(): number {
    let n = 0;
    for (let next = this.queue.shift(); next; next = this.queue.shift(), n++) this.decide(next);
    return n;
  }

  /** Journals a position (and its account's balance) as a margin change would: the fixture's shortcut past trading. */
  givenPosition(userId: string, accountId: string, side: PositionSide, size: string, price: string, margin: string) {
    const sizeM = new Money(size);
    const position = positionAfter(
      {
        accountId,
        symbol: SWAP,
        side,
        size: sizeM,
        closing: ZERO,
        opening: ZERO,
        entryValue: sizeM.times(config.contractMultiplier).times(price),
        margin: new Money(margin),
        realizedPnl: ZERO,
        leverage: new Money(10),
        flp: ZERO,
      },
      config,
      { marginPrecision: markets.asset('USDT')!.precision, insurance: { accountId: '', userId: '' } } as never,
    );
    const seq = (this.state.users.get(userId)?.seq ?? 0) + 1;
    const event = {
      type: 'PositionMarginModified',
      v: 1,
      id: `setup-${accountId}-${side}:0`,
      ts: T0,
      payload: {
        accountId,
        symbol: SWAP,
        side,
        amount: '0',
        position,
        balance: { accountId, free: '1000', locked: '0', positionMargin: margin },
        userId,
        seq,
        commandId: `setup-${accountId}-${side}`,
      },
    } as LedgerJournalEvent;
    evolve(this.state, event);
    this.journal.push(event);
  }

  /** Users `<base + i>` with accounts `<base + i>1..3`, the third their contracts account. */
  givenUsers(base: number, count: number): string[] {
    const accounts: string[] = [];
    for (let i = 0; i < count; i++) {
      const userId = String(base + i);
      this.send('CreateUser', { userId, name: userId, accountIds: [`${userId}1`, `${userId}2`, `${userId}3`] });
      accounts.push(`${userId}3`);
    }
    return accounts;
  }

  /** Every contracts account's USDT, the fund's and the clearing account's included. */
  contractsCash(): Money {
    let total = ZERO;
    for (const b of this.state.contracts.balances.values())
      total = total.plus(b.free).plus(b.locked).plus(b.positionMargin);
    return total;
  }
}

/** A fresh fold of a journal: what a replay gives. */
export function replayed(journal: readonly LedgerJournalEvent[]): LedgerState {
  const state = initialLedgerState();
  for (const e of journal) evolve(state, e);
  return state;
}
