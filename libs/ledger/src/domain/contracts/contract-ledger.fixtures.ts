import { type LedgerCommand, ledgerCommandSchema, type LedgerJournalEvent } from '@exchange/contracts';
import { decide, type TradingContext } from '../decide';
import { flowIdOf } from '../ledger-ids';
import { evolve, initialLedgerState, type LedgerState } from '../ledger-state';
import { FEES, shippedMarkets as markets, T0 } from './contract-scenario.fixtures';
import { peekContractBalance } from './contract-state';

export const SWAP = 'BTC-SWAP-USDT';
export const ALICE = { userId: '100', spot: '1001', contracts: '1003' };
export const BOB = { userId: '200', spot: '2001', contracts: '2003' };
type Who = typeof ALICE;
/** The ledger decides a little after the sender: times the engine gave must not become the ledger's. */
const DECISION_DELAY_MS = 1_000;

/**
 * The ledger's decide/evolve with the shipped markets: contract commands routed inside the same
 * step as spot ones. Each command is sent a millisecond after the one before (or when decideNextAt
 * says).
 */
export class Ledger {
  readonly journal: LedgerJournalEvent[] = [];
  private offset = 0;
  private elapsed = 0;

  /** A ledger of its own, or one that goes on from a given state (a restored snapshot). */
  constructor(readonly state: LedgerState = initialLedgerState()) {}

  /** The time the last command was sent at. */
  get sentAt(): number {
    return T0 + this.offset + this.elapsed;
  }

  /** The time the last command was decided at: the time its events carry. */
  get decidedAt(): number {
    return this.sentAt + DECISION_DELAY_MS;
  }

  /** Moves the clock (forward, in these specs) so that the next command is decided at `time`. */
  decideNextAt(time: number): void {
    this.elapsed = time - DECISION_DELAY_MS - T0 - (this.offset + 1);
  }

  when(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerJournalEvent[] {
    const offset = this.offset++;
    const command = ledgerCommandSchema.parse({
      type,
      v: type === 'ApplyOrderOutcome' ? 2 : 1,
      id: `t${offset + 1}`,
      ts: this.sentAt,
      payload,
    });
    const ctx: TradingContext = {
      now: command.ts + DECISION_DELAY_MS,
      flowId: (k) => flowIdOf(offset, 0, k),
      asset: (n) => markets.asset(n),
      symbol: (s) => markets.symbol(s),
      contract: (s) => markets.contract(s),
      feeAccountId: FEES,
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    return events;
  }

  given(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerJournalEvent[] {
    const events = this.when(type, payload);
    if (events[0]?.type === 'CommandRejected') throw new Error(`given ${type} was rejected: ${events[0].payload.msg}`);
    return events;
  }

  rejection(type: LedgerCommand['type'], payload: Record<string, unknown>): number | undefined {
    const [event] = this.when(type, payload);
    return event?.type === 'CommandRejected' ? event.payload.code : undefined;
  }

  usdt(accountId: string) {
    const b = peekContractBalance(this.state.contracts, accountId);
    return { free: b.free.toFixed(), locked: b.locked.toFixed(), positionMargin: b.positionMargin.toFixed() };
  }
}

/** The commands that give a user 10000 USDT on spot and move `amount` of it to the contracts account. */
export function fundingOf(u: Who, amount = '5000'): [LedgerCommand['type'], Record<string, unknown>][] {
  return [
    ['CreateUser', { userId: u.userId, name: u.userId, accountIds: [u.spot, `${u.userId}2`, u.contracts] }],
    [
      'CreditDeposit',
      { userId: u.userId, accountId: u.spot, depositId: `${u.userId}9`, asset: 'USDT', amount: '10000' },
    ],
    [
      'TransferFunds',
      {
        userId: u.userId,
        transferId: `${u.userId}8`,
        fromAccountId: u.spot,
        toAccountId: u.contracts,
        asset: 'USDT',
        amount,
      },
    ],
  ];
}

/** Alice and Bob, funded (see fundingOf). */
export function funded(): Ledger {
  const ledger = new Ledger();
  for (const [type, payload] of [...fundingOf(ALICE), ...fundingOf(BOB)]) ledger.given(type, payload);
  return ledger;
}

/** A PlaceContractOrder's payload, with the client id `c<orderId>` unless `more` names one. */
export const place = (
  who: Who,
  orderId: string,
  side: string,
  quantity: string,
  price: string,
  more: Record<string, unknown> = {},
) => ({
  userId: who.userId,
  accountId: who.contracts,
  orderId,
  symbol: SWAP,
  side,
  price,
  quantity,
  marketsVersion: markets.version,
  clientOrderId: `c${orderId}`,
  ...more,
});

/** A SettleTradeLeg's payload: one account's side of the engine's trade. */
export const leg = (who: Who, orderId: string, side: 'BUY' | 'SELL', qty: string, price: string, isMaker: boolean) => ({
  tradeId: '77',
  symbol: SWAP,
  orderId,
  accountId: who.contracts,
  userId: who.userId,
  side,
  price,
  qty,
  quoteQty: '0',
  isMaker,
});

/** An ApplyOrderOutcome's payload: the engine's step of the order's life. */
export const outcome = (who: Who, orderId: string, side: 'BUY' | 'SELL', result: string, reason?: string) => ({
  symbol: SWAP,
  orderId,
  accountId: who.contracts,
  userId: who.userId,
  side,
  outcome: result,
  ...(reason ? { reason } : {}),
});
