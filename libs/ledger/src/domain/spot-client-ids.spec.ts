import type { LedgerCommand, LedgerJournalEvent } from '@exchange/contracts';
import { capturePartition, type PartitionScope, restorePartition } from '../processing/partition-state';
import { decide, type TradingContext } from './decide';
import { DEFAULT_CLIENT_ID_WINDOW_MS as WINDOW, evolve, initialLedgerState, type LedgerState } from './ledger-state';
import { ledgerStateHash } from './ledger-state-hash';
import { assets, btcusdt } from './spot-market.fixtures';

const T0 = 1_700_000_000_000;
const MAKER = { userId: '100', accountId: '1001' };
const scope: PartitionScope = { partition: 0, partitionOf: () => 0, feeAccountId: '9000000000' };

/** A ledger of one partition folded from what it decided, with its journal. */
class Ledger {
  readonly state = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  private n = 0;

  send(type: LedgerCommand['type'], payload: object, now: number): LedgerJournalEvent {
    const v = type === 'ApplyOrderOutcome' ? 2 : 1;
    const command = { type, v, id: `k${++this.n}`, ts: now, payload } as LedgerCommand;
    const ctx: TradingContext = {
      now,
      flowId: (k) => String(this.n * 16 + k + 1),
      asset: (a) => assets[a],
      symbol: () => btcusdt,
      feeAccountId: scope.feeAccountId,
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    return events[0]!;
  }

  /** A BUY of 0.001 at 10000 (10 USDT reserved). */
  place(orderId: string, clientOrderId: string, timeInForce: 'GTC' | 'IOC', now: number): LedgerJournalEvent {
    const terms = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '10000', quantity: '0.001' };
    return this.send('PlaceOrder', { ...MAKER, ...terms, orderId, clientOrderId, timeInForce, marketsVersion: 1 }, now);
  }

  /** The engine's answer to an IOC that found nothing to take: it ends at once. */
  expire(orderId: string, now: number): void {
    const outcome = { symbol: 'BTCUSDT', side: 'BUY', outcome: 'CANCELED', reason: 'IOC_REMAINDER' };
    this.send('ApplyOrderOutcome', { ...MAKER, ...outcome, orderId, remainingQty: '0.001' }, now);
  }
}

function replayed(journal: readonly LedgerJournalEvent[]): LedgerState {
  const state = initialLedgerState();
  for (const e of JSON.parse(JSON.stringify(journal)) as LedgerJournalEvent[]) evolve(state, e);
  return state;
}

/** A restart from a snapshot of the state: captured, through JSON, restored into an empty ledger. */
function restarted(state: LedgerState, drop?: 'endedClientIds'): LedgerState {
  const captured = JSON.parse(JSON.stringify(capturePartition(state, scope, [])));
  if (drop) delete captured[drop];
  const restored = initialLedgerState();
  restorePartition(restored, captured);
  return restored;
}

const IOCS = 10;
const SPACING = WINDOW / 4;
const at = (i: number): number => T0 + 1 + i * SPACING;

/** A resting GTC quote, then IOC orders 1..IOCS every quarter window, each ending when placed. */
function makerWithIocs(): Ledger {
  const ledger = new Ledger();
  ledger.send('CreateUser', { userId: MAKER.userId, name: 'maker', accountIds: ['1001', '1002', '1003'] }, T0);
  ledger.send('CreditDeposit', { ...MAKER, depositId: '1', asset: 'USDT', amount: '1000' }, T0);
  expect(ledger.place('500', 'quote', 'GTC', T0).type).toBe('OrderPlaced');
  for (let i = 1; i <= IOCS; i++) {
    expect(ledger.place(String(i), `ioc${i}`, 'IOC', at(i)).type).toBe('OrderPlaced');
    ledger.expire(String(i), at(i));
  }
  return ledger;
}

describe('spot client order ids: a resting order holds back no eviction of later final orders', () => {
  it('keeps the resting order and only the final orders inside the window after the last placement', () => {
    const ledger = makerWithIocs();
    // At the last placement (IOC 10), an IOC ended at at(i) still holds its id iff at(10) < at(i) + WINDOW: i > 6.
    expect([...ledger.state.orders.keys()].sort()).toEqual(['10', '500', '7', '8', '9']);
    expect(ledger.state.orders.get('500')?.status).toBe('NEW');
    expect([...ledger.state.clientIds.get(MAKER.accountId)!.keys()]).toEqual([
      'quote',
      'ioc7',
      'ioc8',
      'ioc9',
      'ioc10',
    ]);
    expect([...ledger.state.clientIdsEnded.get(MAKER.accountId)!]).toEqual(
      [7, 8, 9, 10].map((i) => [`ioc${i}`, at(i)]),
    );
  });

  it('still refuses a client id held inside the window (-1141), and the resting one', () => {
    const ledger = makerWithIocs();
    const now = at(IOCS) + 1;
    const rejected = (clientOrderId: string, orderId: string) => ledger.place(orderId, clientOrderId, 'IOC', now);
    expect(rejected('ioc7', '21')).toMatchObject({ type: 'CommandRejected', payload: { code: -1141 } });
    expect(rejected('quote', '22')).toMatchObject({ type: 'CommandRejected', payload: { code: -1141 } });
    expect(ledger.place('23', 'ioc6', 'IOC', now)).toMatchObject({ type: 'OrderPlaced' });
  });

  it('gives a replay, a snapshot round trip and a snapshot taken before the queue the live hash, then and after', () => {
    const ledger = makerWithIocs();
    const live = ledgerStateHash(ledger.state);
    const others = [replayed(ledger.journal), restarted(ledger.state), restarted(ledger.state, 'endedClientIds')];
    expect(others.map(ledgerStateHash)).toEqual([live, live, live]);
    // Folding on from each gives the live fold again: the eviction order came back too.
    const next = ledger.place('30', 'next', 'IOC', at(IOCS + 3));
    for (const other of others) evolve(other, JSON.parse(JSON.stringify(next)) as LedgerJournalEvent);
    expect([...ledger.state.orders.keys()].sort()).toEqual(['10', '30', '500']);
    expect(others.map(ledgerStateHash)).toEqual(Array(3).fill(ledgerStateHash(ledger.state)));
  });
});
