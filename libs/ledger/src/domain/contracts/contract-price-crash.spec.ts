import type { ContractOrderRecord } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { seededRandom } from '../seeded-random.fixtures';
import { checkFlowsExplainBalances } from './contract-flows.fixtures';
import { checkInvariants } from './contract-invariants.fixtures';
import { pastMaintenance } from './contract-risk';
import { evolveContracts, initialContractsState } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { ContractScenario, FUND, shippedMarkets } from './contract-scenario.fixtures';

const SYMBOL = 'BTC-SWAP-USDT';
const CONFIG = shippedMarkets.contract(SYMBOL)!;
const TICK = new Money(CONFIG.tickSize);
/** The market maker who takes the other side of the fund's IOC orders: fully collateralised (1×). */
const MAKER = '99001';
const LEVERAGES = ['1', '2', '5', '10', '15', '20'];

/**
 * Random positions at random leverage, then a random index path biased downwards with jumps: after
 * every mark the decider liquidates, the fund's IOC orders are filled by a maker (all, part, or
 * expired), and funding is settled now and then. After every step every invariant holds.
 */
function crash(seed: number) {
  const rnd = seededRandom(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const s = new ContractScenario();
  let credited = ZERO;
  const credit = (id: string, amount: string) => {
    s.credit(id, amount);
    credited = credited.plus(amount);
  };
  const fundSeed = String([0, 0, 500, 5000][int(4)]);
  if (fundSeed !== '0') s.apply('SeedInsuranceFund', { seedId: '1', amount: fundSeed });
  credited = credited.plus(fundSeed);
  credit(MAKER, '100000000');
  let ids = 0;
  const id = () => String(++ids);

  // 30 pairs: a LONG and a SHORT of 1–200 contracts between two of 12 accounts, at 49000–51000.
  for (let i = 0; i < 30; i++) {
    const [buyer, seller] = [`${1 + int(12)}1`, `${13 + int(12)}1`];
    for (const a of [buyer, seller]) if (!s.state.balances.has(a)) credit(a, String(2000 + int(20000)));
    const price = new Money(49000 + int(2000)).toFixed();
    const quantity = String(1 + int(200));
    const [buy, sell] = [id(), id()];
    const long = s.position(buyer, 'LONG').leverage;
    const short = s.position(seller, 'SHORT').leverage;
    const b = s.order(buyer, buy, 'BUY_OPEN', quantity, price, long !== '0' ? long : LEVERAGES[int(LEVERAGES.length)]);
    const o = s.order(seller, sell, 'SELL_OPEN', quantity, price, short !== '0' ? short : LEVERAGES[int(LEVERAGES.length)]);
    if ('rejection' in b || 'rejection' in o) {
      for (const [d, who, orderId] of [[b, buyer, buy], [o, seller, sell]] as const) if ('events' in d) s.given('EndContractOrder', { accountId: who, orderId, symbol: SYMBOL, status: 'CANCELED' });
      continue;
    }
    s.trade({ accountId: seller, orderId: sell }, { accountId: buyer, orderId: buy }, quantity, price, id());
  }

  let index = new Money(50000);
  const counts = { liquidated: 0, deleveraged: 0, fundFills: 0 };
  for (let step = 0; step < 60; step++) {
    const move = rnd() < 0.1 ? -(4 + int(6)) : int(5) - 3; // percent: mostly −3..+1, a jump now and then
    index = Money.max(new Money(1000), index.times(100 + move).div(100)).toNearest(TICK, Money.ROUND_DOWN);
    const events = s.apply('MarkContractPrice', { symbol: SYMBOL, markPrice: index.toFixed(), indexPrice: index.toFixed(), marketsVersion: 1 });
    counts.liquidated += events.filter((e) => e.type === 'PositionLiquidated').length;
    counts.deleveraged += events.filter((e) => e.type === 'PositionDeleveraged').length;
    for (const o of [...s.state.orders.values()].filter((x) => x.accountId === FUND)) if (fillFundOrder(s, o, index, int, id)) counts.fundFills++;
    if (step % 10 === 9) s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: step, rate: new Money(int(151) - 75).div(10000).toFixed(), markPrice: index.toFixed() });

    checkInvariants(s.state, credited);
    for (const p of s.state.positions.values()) {
      if (p.accountId !== FUND && pastMaintenance(p, CONFIG, index)) throw new Error(`step ${step}: ${p.accountId} ${p.side} is past maintenance at ${index.toFixed()} and still open`);
    }
  }
  checkFlowsExplainBalances(s.journal, s.state);
  expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(contractsStateHash(s.state));
  return counts;
}

/** The maker fills an IOC of the fund at the mark (all of it, part of it, or none), and the rest expires. */
function fillFundOrder(s: ContractScenario, o: ContractOrderRecord, mark: Money, int: (n: number) => number, id: () => string): boolean {
  const quantity = Number(o.quantity) - Number(o.executedQty);
  const filled = [quantity, 1 + int(quantity), 0][int(3)]!;
  if (filled > 0) {
    const makerOrder = id();
    s.order(MAKER, makerOrder, o.side === 'SELL_CLOSE' ? 'BUY_OPEN' : 'SELL_OPEN', String(filled), mark.toFixed(), '1');
    s.trade({ accountId: MAKER, orderId: makerOrder }, { accountId: FUND, orderId: o.orderId }, String(filled), mark.toFixed(), id());
  }
  if (filled < quantity) s.given('EndContractOrder', { accountId: FUND, orderId: o.orderId, symbol: SYMBOL, status: 'EXPIRED' });
  return filled > 0;
}

describe('Contracts: a price crash', () => {
  it('keeps every balance non-negative, sizes matched, USDT conserved and no position past maintenance, at every step', () => {
    const totals = { liquidated: 0, deleveraged: 0, fundFills: 0 };
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const counts = crash(seed);
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += counts[k];
    }
    // The paths did what they are for: takeovers, deleveraging when the fund ran dry, fund closes.
    expect(totals.liquidated).toBeGreaterThan(10);
    expect(totals.deleveraged).toBeGreaterThan(0);
    expect(totals.fundFills).toBeGreaterThan(5);
  });
});
