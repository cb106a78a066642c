import { type LedgerCommand, ledgerCommandSchema, type LedgerJournalEvent } from '@exchange/contracts';
import { orderCommandsFor } from '../order-commands-from-events';
import { clearingAccountIdOf, insuranceAccountIdOf } from '../ledger-ids';
import { Money } from '../ledger-money';
import { fundingOf, leg, place } from './contract-ledger.fixtures';
import { shippedMarkets as markets } from './contract-scenario.fixtures';
import { peekContractBalance, peekPosition } from './contract-state';
import { cmd, PartitionedLedger } from './partitioned-ledger.fixtures';

const T0 = 1_700_000_000_000;
const SWAP = 'BTC-SWAP-USDT';
/** Two ledger partitions in one state, as one ledger process holds them: Alice's is 0, Bob's 1. */
const ALICE = { userId: '100', spot: '1001', contracts: '1003', partition: 0 };
const BOB = { userId: '200', spot: '2001', contracts: '2003', partition: 1 };
const SYSTEM_USERS = ['7', '8'];
const partitionOfUser = (userId: string) => (userId === BOB.userId ? 1 : 0);

/** Alice's and Bob's partitions, deciding within each (the count is not given: no ADL across them). */
class Ledger extends PartitionedLedger {
  constructor() {
    super({ systemUsers: SYSTEM_USERS, partitionOf: partitionOfUser });
  }

  /** One system command to every partition, as the price relay sends it. */
  everywhere(type: LedgerCommand['type'], payload: Record<string, unknown>, id: string): LedgerJournalEvent[][] {
    return [0, 1].map((p) => this.when(cmd(type, payload, `${id}/${p}`), p));
  }

  free(accountId: string): string {
    return peekContractBalance(this.state.contracts, accountId).free.toFixed();
  }

  total(accountId: string): Money {
    const b = peekContractBalance(this.state.contracts, accountId);
    return b.free.plus(b.locked).plus(b.positionMargin);
  }
}

/** Alice LONG 10 and Bob SHORT 10 at 30000, 10× leverage, in different partitions. */
function opened(): Ledger {
  const ledger = new Ledger();
  for (const u of [ALICE, BOB])
    for (const [type, payload] of fundingOf(u, '1000')) ledger.given(type, payload, u.partition);
  ledger.given('PlaceContractOrder', place(ALICE, '11', 'BUY_OPEN', '10', '30000', { leverage: '10' }), 0);
  ledger.given('PlaceContractOrder', place(BOB, '12', 'SELL_OPEN', '10', '30000', { leverage: '10' }), 1);
  ledger.given('SettleTradeLeg', leg(ALICE, '11', 'BUY', '10', '30000', true), 0);
  ledger.given('SettleTradeLeg', leg(BOB, '12', 'SELL', '10', '30000', false), 1);
  return ledger;
}

describe('price and funding commands decided per ledger partition', () => {
  it('funds each partition against its clearing account: the clearing accounts sum to zero, USDT is conserved', () => {
    const ledger = opened();
    const accounts = [
      ALICE.contracts,
      BOB.contracts,
      ...[0, 1].flatMap((p) => [String(p + 1), insuranceAccountIdOf(p), clearingAccountIdOf(p)]),
    ];
    const before = accounts.reduce((sum, id) => sum.plus(ledger.total(id)), new Money(0));
    const [inA, inB] = ledger.everywhere(
      'SettleFunding',
      { symbol: SWAP, fundingTime: T0 + 8, rate: '0.0001', markPrice: '30000.5' },
      'FundingRateFixed:x',
    );
    // 10 × 0.001 × 30000.5 × 0.0001 = 0.0300005: Alice pays 0.03000050 → rounded up to USDT's precision, Bob receives it rounded down.
    const paid = inA![0]!.type === 'FundingSettled' ? inA![0]!.payload : undefined;
    expect(paid?.payments.map((p) => [p.accountId, p.amount])).toEqual([[ALICE.contracts, '-0.0300005']]);
    const got = inB![0]!.type === 'FundingSettled' ? inB![0]!.payload : undefined;
    expect(got?.payments.map((p) => [p.accountId, p.amount])).toEqual([[BOB.contracts, '0.0300005']]);
    expect(new Money(ledger.free(clearingAccountIdOf(0))).plus(ledger.free(clearingAccountIdOf(1))).toFixed()).toBe(
      '0',
    );
    expect(ledger.free(clearingAccountIdOf(0))).toBe('0.0300005');
    const after = accounts.reduce((sum, id) => sum.plus(ledger.total(id)), new Money(0));
    expect(after.toFixed()).toBe(before.toFixed());
    // Journaled under each partition's system user, with sequences from the log position.
    expect(inA![0]!.payload.userId).toBe(SYSTEM_USERS[0]);
    expect(inB![0]!.payload.seq).toBeGreaterThan(inA![0]!.payload.seq);
    // A repeat of the same interval, under any id, pays nothing in either partition.
    expect(
      ledger.everywhere(
        'SettleFunding',
        { symbol: SWAP, fundingTime: T0 + 8, rate: '0.0001', markPrice: '30000.5' },
        'again',
      ),
    ).toEqual([[], []]);
  });

  it('liquidates a position only in its own partition, into that partition fund, which offers it back with an IOC order', () => {
    const ledger = opened();
    // A mark a dollar under the flp (the flp is rounded towards the mark: at it the exact rule may not hold yet).
    const flp = peekPosition(ledger.state.contracts, ALICE.contracts, SWAP, 'LONG').flp.minus(1).toFixed();
    const [inA, inB] = ledger.everywhere(
      'MarkContractPrice',
      { symbol: SWAP, markPrice: flp, indexPrice: flp, marketsVersion: markets.version },
      'ContractPricesChanged:y',
    );
    // Each partition keeps the mark it consumed; only Alice's liquidates.
    expect(inB!.map((e) => [e.type, 'fundAccountId' in e.payload && e.payload.fundAccountId])).toEqual([
      ['ContractMarkPriced', insuranceAccountIdOf(1)],
    ]);
    expect(inA!.map((e) => e.type)).toEqual(['ContractMarkPriced', 'PositionLiquidated', 'ContractOrderPlaced']);
    expect(peekPosition(ledger.state.contracts, insuranceAccountIdOf(0), SWAP, 'LONG').size.toFixed()).toBe('10');
    expect(peekPosition(ledger.state.contracts, ALICE.contracts, SWAP, 'LONG').size.toFixed()).toBe('0');
    const [submit] = orderCommandsFor(inA!);
    expect(submit?.payload).toMatchObject({
      symbol: SWAP,
      side: 'SELL',
      timeInForce: 'IOC',
      accountId: insuranceAccountIdOf(0),
      userId: SYSTEM_USERS[0],
    });
    expect(submit?.type === 'SubmitOrder' && BigInt(submit.payload.orderId) > 2n ** 52n).toBe(true);
  });

  it('checks a margin removal at the mark its own partition consumed, not the mark the command names', () => {
    const ledger = opened();
    const margin = (u: typeof ALICE, side: string, amount: string, markPrice: string) =>
      ledger.when(
        cmd('ModifyPositionMargin', {
          userId: u.userId,
          accountId: u.contracts,
          symbol: SWAP,
          side,
          amount,
          markPrice,
        }),
        u.partition,
      );
    for (const [u, side] of [
      [ALICE, 'LONG'],
      [BOB, 'SHORT'],
    ] as const)
      expect(margin(u, side, '10', '30000')[0]?.type).toBe('PositionMarginModified');
    // Alice's partition is at 29700, Bob's at 30000. Each keeps 40 of margin; removing 10 leaves 30.
    ledger.when(
      cmd(
        'MarkContractPrice',
        { symbol: SWAP, markPrice: '29700', indexPrice: '29700', marketsVersion: markets.version },
        'm/0',
      ),
      0,
    );
    ledger.when(
      cmd(
        'MarkContractPrice',
        { symbol: SWAP, markPrice: '30000', indexPrice: '30000', marketsVersion: markets.version },
        'm/1',
      ),
      1,
    );
    // At 29700 Alice's LONG needs 29.7 + the 3 it is down: refused though her command claims 30000.
    const refused = margin(ALICE, 'LONG', '-10', '30000');
    expect(refused.map((e) => e.type === 'CommandRejected' && [e.payload.code, e.payload.msg])).toEqual([
      [-1131, expect.stringContaining('32.7 at mark price 29700')],
    ]);
    // At 30000 Bob's SHORT needs 30: allowed though his command claims 31000 (where it would need 41).
    expect(margin(BOB, 'SHORT', '-10', '31000')[0]?.type).toBe('PositionMarginModified');
    expect(peekPosition(ledger.state.contracts, ALICE.contracts, SWAP, 'LONG').margin.toFixed()).toBe('40');
  });

  it("asks the engine to cancel a liquidated position's resting order, and takes the position over when its outcome arrives", () => {
    const ledger = opened();
    ledger.given(
      'PlaceContractOrder',
      {
        userId: ALICE.userId,
        accountId: ALICE.contracts,
        orderId: '13',
        symbol: SWAP,
        side: 'SELL_CLOSE',
        price: '40000',
        quantity: '4',
        marketsVersion: markets.version,
        clientOrderId: 'c13',
      },
      0,
    );
    const flp = peekPosition(ledger.state.contracts, ALICE.contracts, SWAP, 'LONG').flp.minus(1).toFixed();
    const mark = (id: string) =>
      ledger.everywhere(
        'MarkContractPrice',
        { symbol: SWAP, markPrice: flp, indexPrice: flp, marketsVersion: markets.version },
        id,
      );
    const [inA] = mark('m1');
    expect(inA!.map((e) => e.type)).toEqual(['ContractMarkPriced', 'ContractCancelRequested']);
    // The engine command is the one a user's cancel gets, for Alice's order.
    expect(orderCommandsFor(inA!)).toEqual([
      expect.objectContaining({
        type: 'CancelOrder',
        payload: { symbol: SWAP, orderId: '13', accountId: ALICE.contracts, userId: ALICE.userId },
      }),
    ]);
    expect(mark('m2')).toEqual([[], []]);
    const outcome = {
      userId: ALICE.userId,
      accountId: ALICE.contracts,
      symbol: SWAP,
      orderId: '13',
      side: 'SELL',
      outcome: 'CANCELED',
      reason: 'USER',
      remainingQty: '4',
    };
    // Its outcome ends the order and, at the mark the partition keeps, takes the position over in the same step.
    const ended = ledger.when(
      ledgerCommandSchema.parse({ type: 'ApplyOrderOutcome', v: 2, id: 'o13', ts: T0 + 99, payload: outcome }),
      0,
    );
    expect(ledger.state.contracts.orders.has('13')).toBe(false);
    expect(ended.map((e) => e.type)).toEqual(['ContractOrderEnded', 'PositionLiquidated', 'ContractOrderPlaced']);
    // The end says why though the engine said USER; it asks the engine nothing more (only the fund's IOC goes to it).
    expect(ended[0]).toMatchObject({
      payload: { order: { orderId: '13', status: 'CANCELED' }, reason: 'LIQUIDATION' },
    });
    expect(orderCommandsFor(ended).map((c) => c.type)).toEqual(['SubmitOrder']);
    expect(mark('m3')).toEqual([[], []]);
    expect(peekPosition(ledger.state.contracts, insuranceAccountIdOf(0), SWAP, 'LONG').size.toFixed()).toBe('10');
  });
});
