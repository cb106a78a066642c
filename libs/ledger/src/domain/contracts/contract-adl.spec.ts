import {
  type ContractEvent,
  isContractJournalEvent,
  type LedgerCommand,
  ledgerCommandSchema,
  type LedgerJournalEvent,
} from '@exchange/contracts';
import { insuranceAccountIdOf } from '../ledger-ids';
import { Money, ZERO } from '../ledger-money';
import { evolve, initialLedgerState } from '../ledger-state';
import { ledgerStateHash } from '../ledger-state-hash';
import { orderCommandsFor } from '../order-commands-from-events';
import { adlCommandsFor } from './adl-commands';
import { checkFlowsExplainBalances } from './contract-flows.fixtures';
import { checkInvariants } from './contract-invariants.fixtures';
import { fundingOf, leg, place } from './contract-ledger.fixtures';
import { shippedMarkets as markets } from './contract-scenario.fixtures';
import { peekPosition } from './contract-state';
import { cmd, PartitionedLedger } from './partitioned-ledger.fixtures';

const SWAP = 'BTC-SWAP-USDT';
const PARTITIONS = 3;
const SYSTEM_USERS = ['7', '8', '9'];
const FUND = insuranceAccountIdOf(0);

const user = (userId: string, partition: number) => ({
  userId,
  spot: `${userId}1`,
  contracts: `${userId}3`,
  partition,
});
type User = ReturnType<typeof user>;
/** The bankrupt LONG is Alice's, in partition 0; the SHORTs against it sit in all three partitions. */
const ALICE = user('100', 0);
const ERIN = user('500', 0);
const BOB = user('200', 1);
const DAVE = user('400', 1);
const CAROL = user('300', 2);
const FRANK = user('600', 2);
const GREG = user('700', 1);
const USERS = [ALICE, ERIN, BOB, DAVE, CAROL, FRANK, GREG];

let ids = 0;

/** Three partitions that are told their count: a bankrupt position's ADL reaches all three. */
class Ledger extends PartitionedLedger {
  constructor() {
    super({
      systemUsers: SYSTEM_USERS,
      partitionOf: (userId) => USERS.find((u) => u.userId === userId)?.partition ?? 0,
      count: PARTITIONS,
    });
  }

  /** One mark price to every partition, as the price relay sends it. */
  mark(price: string, id: string): LedgerJournalEvent[][] {
    const payload = { symbol: SWAP, markPrice: price, indexPrice: price, marketsVersion: markets.version };
    return [0, 1, 2].map((p) => this.when(cmd('MarkContractPrice', payload, `${id}/${p}`), p));
  }

  /** Takes the next command off the outbox as its partition reads it from ledger.commands. */
  deliverNext(): { partition: number; command: LedgerCommand; events: LedgerJournalEvent[] } {
    const { partition, command } = this.outbox.shift()!;
    const parsed = ledgerCommandSchema.parse(JSON.parse(JSON.stringify(command)));
    return { partition, command: parsed, events: this.when(parsed, partition) };
  }

  deliverAll(): LedgerCommand[] {
    const delivered: LedgerCommand[] = [];
    while (this.outbox.length > 0) delivered.push(this.deliverNext().command);
    return delivered;
  }

  position(u: User | string, side: 'LONG' | 'SHORT') {
    const accountId = typeof u === 'string' ? u : u.contracts;
    const p = peekPosition(this.state.contracts, accountId, SWAP, side);
    return { size: p.size.toFixed(), available: p.size.minus(p.closing).toFixed() };
  }

  /** USDT over every contracts account: users', fees', funds', clearing accounts'. */
  totalUsdt(): Money {
    let total = ZERO;
    for (const b of this.state.contracts.balances.values())
      total = total.plus(b.free).plus(b.locked).plus(b.positionMargin);
    return total;
  }

  contractEvents(): ContractEvent[] {
    return this.journal.filter(isContractJournalEvent) as unknown as ContractEvent[];
  }

  credited(): Money {
    return this.contractEvents()
      .filter((e) => e.type === 'ContractAccountCredited')
      .reduce((sum, e) => sum.plus(e.payload.amount), ZERO);
  }

  replayHash(): string {
    const replayed = initialLedgerState();
    for (const e of this.journal) evolve(replayed, e);
    return ledgerStateHash(replayed);
  }
}

/** A contract trade between two users at 30000: both orders placed, both legs settled. */
function trade(ledger: Ledger, long: User, short: User, quantity: string, leverage: [string, string]): void {
  const [buy, sell] = [String(++ids + 1000), String(++ids + 1000)];
  ledger.given(
    'PlaceContractOrder',
    place(long, buy, 'BUY_OPEN', quantity, '30000', { leverage: leverage[0] }),
    long.partition,
  );
  ledger.given(
    'PlaceContractOrder',
    place(short, sell, 'SELL_OPEN', quantity, '30000', { leverage: leverage[1] }),
    short.partition,
  );
  ledger.given('SettleTradeLeg', { ...leg(long, buy, 'BUY', quantity, '30000', true), tradeId: buy }, long.partition);
  ledger.given(
    'SettleTradeLeg',
    { ...leg(short, sell, 'SELL', quantity, '30000', false), tradeId: buy },
    short.partition,
  );
}

function funded(): Ledger {
  const ledger = new Ledger();
  for (const u of USERS) for (const [type, payload] of fundingOf(u, '1000')) ledger.given(type, payload, u.partition);
  return ledger;
}

/**
 * Alice LONG 10 at 10× (bankrupt at 27000) against Carol SHORT 3 at 20×, Dave 3 at 10×, Bob 4 at
 * 2× in other partitions and Erin 5 at 2× in hers (against Frank's LONG 5). At a mark of 26000 the
 * ranks (PnL 4 a contract × quantity × leverage) are Carol 240, Dave 120, Erin 40, Bob 32.
 */
function opened(): Ledger {
  const ledger = funded();
  trade(ledger, ALICE, CAROL, '3', ['10', '20']);
  trade(ledger, ALICE, DAVE, '3', ['10', '10']);
  trade(ledger, ALICE, BOB, '4', ['10', '2']);
  trade(ledger, FRANK, ERIN, '5', ['2', '2']);
  return ledger;
}

function types(events: readonly LedgerJournalEvent[]): string[] {
  return events.map((e) => e.type);
}

describe('auto-deleveraging across ledger partitions', () => {
  it('closes the bankrupt LONG against SHORTs of every partition, most profitable × leverage first, at the bankruptcy price', () => {
    const ledger = opened();
    const before = ledger.totalUsdt();
    const [inA] = ledger.mark('26000', 'crash');
    // The unseeded fund cannot pay the 10 it would lose at 26000: it takes the LONG and asks the others.
    expect(types(inA!)).toEqual(['ContractMarkPriced', 'PositionLiquidated', 'AdlRequested']);
    expect(ledger.position(ALICE, 'LONG').size).toBe('0');
    // The fund holds it awaiting ADL: nothing of it is offered to the book meanwhile.
    expect(ledger.position(FUND, 'LONG')).toEqual({ size: '10', available: '0' });
    expect(orderCommandsFor(inA!)).toEqual([]);
    expect(ledger.outbox.map((c) => [c.partition, c.command.type])).toEqual([
      [1, 'CollectAdlCandidates'],
      [2, 'CollectAdlCandidates'],
    ]);
    // Erin's SHORT, in the requester's own partition, is reserved already: a close order cannot claim it.
    expect(ledger.position(ERIN, 'SHORT')).toEqual({ size: '5', available: '0' });
    const close = ledger.when(cmd('PlaceContractOrder', place(ERIN, '9001', 'BUY_CLOSE', '1', '26000')), 0);
    expect(close[0]?.type === 'CommandRejected' && close[0].payload.code).toBe(-2022);

    const delivered = ledger.deliverAll();
    expect(delivered.map((c) => c.type)).toEqual([
      'CollectAdlCandidates',
      'CollectAdlCandidates',
      'AdlCandidates',
      'AdlCandidates',
      'ApplyAdl',
      'ApplyAdl',
    ]);
    const resolved = ledger.journal.find((e) => e.type === 'AdlResolved');
    expect(resolved?.type === 'AdlResolved' && resolved.payload.legs).toEqual([
      { partition: 2, accountId: CAROL.contracts, quantity: '3', value: '81' },
      { partition: 1, accountId: DAVE.contracts, quantity: '3', value: '81' },
      { partition: 0, accountId: ERIN.contracts, quantity: '4', value: '108' },
    ]);
    expect(ledger.position(FUND, 'LONG')).toEqual({ size: '0', available: '0' });
    expect(ledger.position(CAROL, 'SHORT').size).toBe('0');
    expect(ledger.position(DAVE, 'SHORT').size).toBe('0');
    expect(ledger.position(ERIN, 'SHORT')).toEqual({ size: '1', available: '1' });
    // Bob ranked last: his reservation is released whole.
    expect(ledger.position(BOB, 'SHORT')).toEqual({ size: '4', available: '4' });
    // Each closed at its share of the bankruptcy value: Carol's 3 of entry 90 at 81.
    const applied = ledger.journal.filter((e) => e.type === 'AdlApplied');
    expect(
      applied.flatMap((e) =>
        e.type === 'AdlApplied' ? e.payload.counterparties.map((c) => [c.accountId, c.pnl]) : [],
      ),
    ).toEqual(
      expect.arrayContaining([
        [CAROL.contracts, '9'],
        [DAVE.contracts, '9'],
        [ERIN.contracts, '12'],
      ]),
    );

    // LONG sizes = SHORT sizes, nobody negative, equity conserved, every USDT explained by flows.
    checkInvariants(ledger.state.contracts, ledger.credited());
    checkFlowsExplainBalances(ledger.contractEvents(), ledger.state.contracts);
    expect(ledger.totalUsdt().toFixed()).toBe(before.toFixed());
    expect(ledger.state.contracts.adlPending.size).toBe(0);
    expect(ledger.state.contracts.adlReserved.size).toBe(0);
    expect(ledger.replayHash()).toBe(ledgerStateHash(ledger.state));
    // Nothing is owed: before, the fund took what no partition's positions could and recorded it uncovered.
    expect([...ledger.state.contracts.uncovered.values()].every((u) => u.isZero())).toBe(true);
  });

  it('decides each step once: a repeated CollectAdlCandidates, AdlCandidates or ApplyAdl changes nothing', () => {
    const ledger = opened();
    ledger.mark('26000', 'crash');
    const collect = ledger.outbox[0]!;
    const first = ledger.deliverNext();
    expect(types(first.events)).toEqual(['AdlCandidatesReserved']);
    // The state hash covers what is pending and reserved: a replay mid-ADL folds the same state.
    expect(ledger.replayHash()).toBe(ledgerStateHash(ledger.state));
    const hash = ledgerStateHash(ledger.state);
    expect(ledger.when(cmd(collect.command.type, collect.command.payload, 'again1'), collect.partition)).toEqual([]);
    expect(ledgerStateHash(ledger.state)).toBe(hash);

    const rest = [...ledger.outbox];
    ledger.deliverAll();
    const repeated = rest.filter((c) => c.command.type === 'AdlCandidates');
    const after = ledgerStateHash(ledger.state);
    for (const [k, c] of [...repeated, ...ledger.journal.flatMap((e) => adlCommandsFor([e]))].entries())
      if (c.command.type !== 'CollectAdlCandidates')
        expect(ledger.when(cmd(c.command.type, c.command.payload, `again-${k}`), c.partition)).toEqual([]);
    expect(ledgerStateHash(ledger.state)).toBe(after);
    expect(ledger.outbox).toEqual([]);
  });

  it('leaves what no partition can take with the fund, which offers it to the book on the next mark', () => {
    const ledger = funded();
    trade(ledger, ALICE, BOB, '10', ['10', '10']);
    // Bob's close order claims 6 of his SHORT: only 4 can be reserved.
    ledger.given('PlaceContractOrder', place(BOB, '9002', 'BUY_CLOSE', '6', '20000'), 1);
    ledger.mark('26000', 'crash');
    ledger.deliverAll();
    expect(ledger.position(BOB, 'SHORT')).toEqual({ size: '6', available: '0' });
    expect(ledger.position(FUND, 'LONG')).toEqual({ size: '6', available: '6' });
    checkInvariants(ledger.state.contracts, ledger.credited());
    checkFlowsExplainBalances(ledger.contractEvents(), ledger.state.contracts);
    const [inA] = ledger.mark('26000', 'again');
    expect(orderCommandsFor(inA!)).toEqual([
      expect.objectContaining({
        type: 'SubmitOrder',
        payload: expect.objectContaining({ accountId: FUND, side: 'SELL', quantity: '6', timeInForce: 'IOC' }),
      }),
    ]);
  });

  it('lets a liquidation of a reserved position wait until its ADL releases it', () => {
    const ledger = funded();
    // Carol's SHORT 3 at 20× is the best candidate and liquidates at about 31350.
    trade(ledger, ALICE, CAROL, '3', ['10', '20']);
    trade(ledger, FRANK, ERIN, '7', ['10', '2']);
    trade(ledger, ALICE, BOB, '7', ['10', '2']);
    ledger.mark('26000', 'crash');
    ledger.deliverNext(); // partition 1 reserves Bob
    ledger.deliverNext(); // partition 2 reserves Carol
    expect(ledger.position(CAROL, 'SHORT').available).toBe('0');
    // A mark that bankrupts Carol's SHORT arrives in her partition before the requester's ApplyAdl.
    const [, , inC] = ledger.mark('32000', 'spike');
    expect(types(inC!)).toEqual(['ContractMarkPriced']);
    ledger.deliverAll();
    // The ADL took all of it at Alice's bankruptcy price, before any liquidation could.
    expect(ledger.position(CAROL, 'SHORT').size).toBe('0');
    expect(ledger.journal.some((e) => e.type === 'PositionLiquidated' && e.payload.accountId === CAROL.contracts)).toBe(
      false,
    );
    checkInvariants(ledger.state.contracts, ledger.credited());
    expect(ledger.replayHash()).toBe(ledgerStateHash(ledger.state));
  });

  it('asks again for what a contended round left: positions another ADL held are taken once it ends', () => {
    const ledger = funded();
    // Alice (partition 0) and Greg (1) LONG 10 at 10×; Carol (2) SHORT 10 at 20×, Dave (1) SHORT 10 at 10×.
    trade(ledger, ALICE, CAROL, '10', ['10', '20']);
    trade(ledger, GREG, DAVE, '10', ['10', '10']);
    const payload = { symbol: SWAP, markPrice: '26000', indexPrice: '26000', marketsVersion: markets.version };
    const mark = (p: number) => ledger.when(cmd('MarkContractPrice', payload, `crash/${p}`), p);
    // Alice's ADL asks first: partitions 1 and 2 reserve Dave and Carol for it, 20 for a need of 10.
    mark(0);
    ledger.deliverNext();
    ledger.deliverNext();
    // Greg's ADL then finds every SHORT held: its partition and the others answer none, but held.
    mark(1);
    mark(2);
    ledger.deliverAll();
    const requested = ledger.journal.filter((e) => e.type === 'AdlRequested');
    expect(requested.map((e) => e.type === 'AdlRequested' && [e.payload.requester, e.payload.round])).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
    ]);
    // Alice's took Carol (240 beats Dave's 40); Greg's second round took Dave, released by Alice's.
    expect(ledger.position(CAROL, 'SHORT').size).toBe('0');
    expect(ledger.position(DAVE, 'SHORT').size).toBe('0');
    expect(ledger.position(FUND, 'LONG').size).toBe('0');
    expect(ledger.position(insuranceAccountIdOf(1), 'LONG').size).toBe('0');
    checkInvariants(ledger.state.contracts, ledger.credited());
    checkFlowsExplainBalances(ledger.contractEvents(), ledger.state.contracts);
    expect(ledger.state.contracts.adlPending.size).toBe(0);
    expect(ledger.replayHash()).toBe(ledgerStateHash(ledger.state));
  });
});
