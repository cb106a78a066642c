import type { ContractEvent } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { evolveContracts, initialContractsState, totalUncovered } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { ContractScenario, FEES, FUND } from './contract-scenario.fixtures';

// BTC-SWAP-USDT as shipped (0.001 BTC a contract). Alice LONG 1000 and Carol LONG 333 at 10×, Bob
// SHORT 1333 at 20×, all at 50000: margins 5000, 1665 and 66650 / 20 = 3332.5.
const [ALICE, BOB, CAROL] = ['1001', '2001', '3001'];
const SYMBOL = 'BTC-SWAP-USDT';
const HOUR8 = 8 * 3600 * 1000;

function openedBook(carolLeverage = '10'): ContractScenario {
  const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000').credit(CAROL, '10000');
  s.order(BOB, '21', 'SELL_OPEN', '1333', '50000', '20');
  s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '10');
  s.order(CAROL, '31', 'BUY_OPEN', '333', '50000', carolLeverage);
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1000', '50000', '1');
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: CAROL, orderId: '31' }, '333', '50000', '2');
  return s;
}

function cashOf(s: ContractScenario): Money {
  return [...s.state.balances.values()].reduce(
    (sum, b) => sum.plus(b.free).plus(b.locked).plus(b.positionMargin),
    ZERO,
  );
}

function settled(events: ContractEvent[]) {
  const [event] = events;
  if (event?.type !== 'FundingSettled') throw new Error(`expected FundingSettled, got ${event?.type}`);
  return event.payload;
}

function funding(s: ContractScenario, fundingTime: number, rate: string, markPrice: string) {
  return settled(s.apply('SettleFunding', { symbol: SYMBOL, fundingTime, rate, markPrice }));
}

const byAccount = (p: ReturnType<typeof settled>) => Object.fromEntries(p.payments.map((x) => [x.accountId, x.amount]));

describe('Contracts: funding', () => {
  it('settles three intervals, positive, negative and at the bound, to the unit, with the sum over all accounts unchanged', () => {
    const s = openedBook();
    const total = cashOf(s).toFixed();
    expect([
      s.position(ALICE, 'LONG').margin,
      s.position(CAROL, 'LONG').margin,
      s.position(BOB, 'SHORT').margin,
    ]).toEqual(['5000', '1665', '3332.5']);

    // +0.012345% at mark 50000.3, LONGs pay: Alice 1000 × 0.001 × 50000.3 × 0.00012345 =
    // 6.172537035 → 6.17253704 (rounded up, she pays); Carol 2.055454832655 → 2.05545484; Bob
    // receives 8.227991867655 → 8.22799186 (rounded down). The fund keeps 8.22799188 − 8.22799186.
    const first = funding(s, HOUR8, '0.00012345', '50000.3');
    expect(byAccount(first)).toEqual({ [ALICE]: '-6.17253704', [CAROL]: '-2.05545484', [BOB]: '8.22799186' });
    expect(first.remainder).toBe('0.00000002');
    expect(s.position(ALICE, 'LONG').margin).toBe('4993.82746296');
    expect(s.position(BOB, 'SHORT').margin).toBe('3340.72799186');
    expect(s.balance(FUND)).toEqual({ free: '0.00000002', locked: '0', positionMargin: '0' });
    expect(first.flows.map((f) => [f.accountId, f.flowType, f.change])).toEqual([
      [ALICE, 'FUNDING_SETTLEMENT', '-6.17253704'],
      [BOB, 'FUNDING_SETTLEMENT', '8.22799186'],
      [CAROL, 'FUNDING_SETTLEMENT', '-2.05545484'],
      [FUND, 'FUNDING_SETTLEMENT', '0.00000002'],
    ]);
    expect(cashOf(s).toFixed()).toBe(total);

    // −0.03% at 49000, SHORTs pay: Bob 1333 × 0.001 × 49000 × 0.0003 = 19.5951 exactly; Alice gets
    // 14.7, Carol 4.8951. Nothing to round: the fund gets nothing.
    const second = funding(s, 2 * HOUR8, '-0.0003', '49000');
    expect(byAccount(second)).toEqual({ [ALICE]: '14.7', [CAROL]: '4.8951', [BOB]: '-19.5951' });
    expect(second.remainder).toBe('0');
    expect(cashOf(s).toFixed()).toBe(total);

    // At the bound, +0.75% at 52000.7: Alice pays 390.00525, Carol 129.87174825, Bob gets 519.87699825.
    const third = funding(s, 3 * HOUR8, '0.0075', '52000.7');
    expect(byAccount(third)).toEqual({ [ALICE]: '-390.00525', [CAROL]: '-129.87174825', [BOB]: '519.87699825' });
    // Alice: 5000 − 6.17253704 + 14.7 − 390.00525.
    expect(s.position(ALICE, 'LONG').margin).toBe('4618.52221296');
    expect(s.balance(ALICE).positionMargin).toBe('4618.52221296');
    expect(s.balance(FUND).free).toBe('0.00000002');
    expect(cashOf(s).toFixed()).toBe(total);
    // The opening fees (Bob 13.33 as maker, Alice 30 and Carol 9.99 as takers), untouched by funding.
    expect(s.balance(FEES).free).toBe('53.32');

    const replayed = s.journal.reduce(evolveContracts, initialContractsState());
    expect(contractsStateHash(replayed)).toBe(contractsStateHash(s.state));
  });

  it('pays each (symbol, fundingTime) once: the same or an earlier interval decides nothing', () => {
    const s = openedBook();
    funding(s, HOUR8, '0.0001', '50000');
    const hash = contractsStateHash(s.state);
    expect(
      s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: HOUR8, rate: '0.0001', markPrice: '50000' }),
    ).toEqual([]);
    expect(
      s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: HOUR8 - 1, rate: '0.0005', markPrice: '50000' }),
    ).toEqual([]);
    expect(contractsStateHash(s.state)).toBe(hash);
    // Another symbol's interval is its own.
    expect(
      settled(
        s.apply('SettleFunding', { symbol: 'ETH-SWAP-USDT', fundingTime: HOUR8, rate: '0.0001', markPrice: '3000' }),
      ).payments,
    ).toEqual([]);
  });

  it('refuses a rate beyond ±0.75%, a mark of zero and an unknown symbol', () => {
    const s = openedBook();
    expect(
      s.run('SettleFunding', { symbol: SYMBOL, fundingTime: 1, rate: '-0.0076', markPrice: '50000' }),
    ).toMatchObject({ rejection: { code: -1130 } });
    expect(s.run('SettleFunding', { symbol: SYMBOL, fundingTime: 1, rate: '0.0001', markPrice: '0' })).toMatchObject({
      rejection: { code: -1130 },
    });
    expect(s.run('SettleFunding', { symbol: 'BTCUSDT', fundingTime: 1, rate: '0.0001', markPrice: '1' })).toMatchObject(
      { rejection: { code: -1121 } },
    );
  });

  it('pays every position of a busy partition in one interval, each payment a flow of its own id', () => {
    // 20 LONGs and 20 SHORTs of 10 contracts at 50000: each pays or gets 10 × 0.001 × 50000 × 0.0001 = 0.05.
    // The first id layout gave one command 16 flows, so this funding could not be journaled at all.
    const s = new ContractScenario();
    for (let i = 0; i < 20; i++) {
      const [long, short] = [`5${String(i).padStart(2, '0')}1`, `6${String(i).padStart(2, '0')}1`];
      s.credit(long, '1000').credit(short, '1000');
      s.order(short, `2${i}`, 'SELL_OPEN', '10', '50000', '10');
      s.order(long, `1${i}`, 'BUY_OPEN', '10', '50000', '10');
      s.trade({ accountId: short, orderId: `2${i}` }, { accountId: long, orderId: `1${i}` }, '10', '50000', `${i + 1}`);
    }
    const total = cashOf(s);
    const paid = s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: HOUR8, rate: '0.0001', markPrice: '50000' });
    const payments = settled(paid).payments;
    expect(payments).toHaveLength(40);
    expect(new Set(payments.map((p) => p.amount))).toEqual(new Set(['-0.05', '0.05']));
    expect(settled(paid).remainder).toBe('0');
    const flowIds = paid.flatMap((e) => ('flows' in e.payload ? (e.payload.flows ?? []).map((f) => f.flowId) : []));
    expect(flowIds.length).toBeGreaterThanOrEqual(40);
    expect(new Set(flowIds).size).toBe(flowIds.length);
    expect(cashOf(s).toFixed()).toBe(total.toFixed());
  });

  it('lets a payer pay no more than its margin, the fund making up the receipts from its seed', () => {
    // Carol at 20×: margin 16650 / 20 = 832.5, and 0.75% at 50000 costs her 124.875 an interval.
    const s = openedBook('20');
    s.apply('SeedInsuranceFund', { seedId: '1', amount: '30' });
    const total = cashOf(s);
    for (let i = 1; i <= 6; i++) expect(funding(s, i * HOUR8, '0.0075', '50000').remainder).toBe('0');
    expect(s.position(CAROL, 'LONG').margin).toBe('83.25');
    // The seventh: Carol pays the 83.25 she has, Alice 375, Bob gets 1333 × 0.05 × 7.5 = 499.875.
    // The fund pays 499.875 − 458.25 = 41.625 of its 30: 11.625 is uncovered.
    const seventh = funding(s, 7 * HOUR8, '0.0075', '50000');
    expect(byAccount(seventh)).toEqual({ [ALICE]: '-375', [CAROL]: '-83.25', [BOB]: '499.875' });
    expect([seventh.remainder, seventh.uncovered]).toEqual(['-41.625', '11.625']);
    expect(s.balance(FUND).free).toBe('0');
    // The fund's share owes it: it is the fund's, in its partition's snapshot.
    expect([...s.state.uncovered].map(([id, amount]) => [id, amount.toFixed()])).toEqual([[FUND, '11.625']]);
    expect(cashOf(s).minus(totalUncovered(s.state)).toFixed()).toBe(total.toFixed());
  });
});
