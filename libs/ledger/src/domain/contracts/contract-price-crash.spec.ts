import type { ContractOrderRecord } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { seededRandom } from '../seeded-random.fixtures';
import { checkFlowsExplainBalances } from './contract-flows.fixtures';
import { checkInvariants } from './contract-invariants.fixtures';
import { pastMaintenance } from './contract-risk';
import { positionSideOf } from './contract-decision';
import { evolveContracts, initialContractsState, positionKey } from './contract-state';
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
    const o = s.order(
      seller,
      sell,
      'SELL_OPEN',
      quantity,
      price,
      short !== '0' ? short : LEVERAGES[int(LEVERAGES.length)],
    );
    if ('rejection' in b || 'rejection' in o) {
      for (const [d, who, orderId] of [
        [b, buyer, buy],
        [o, seller, sell],
      ] as const)
        if ('events' in d) s.given('EndContractOrder', { accountId: who, orderId, symbol: SYMBOL, status: 'CANCELED' });
      continue;
    }
    s.trade({ accountId: seller, orderId: sell }, { accountId: buyer, orderId: buy }, quantity, price, id());
  }

  let index = new Money(50000);
  const engine = new EngineBook(s);
  const counts = { liquidated: 0, deleveraged: 0, fundFills: 0, cancelsRequested: 0, lateFills: 0 };
  const markAt = (price: Money) =>
    s.apply('MarkContractPrice', {
      symbol: SYMBOL,
      markPrice: price.toFixed(),
      indexPrice: price.toFixed(),
      marketsVersion: 1,
    });
  for (let step = 0; step < 60; step++) {
    restOrders(s, index, int, id);
    const move = rnd() < 0.1 ? -(4 + int(6)) : int(5) - 3; // percent: mostly −3..+1, a jump now and then
    index = Money.max(new Money(1000), index.times(100 + move).div(100)).toNearest(TICK, Money.ROUND_DOWN);
    const events = markAt(index);
    counts.liquidated += events.filter((e) => e.type === 'PositionLiquidated').length;
    counts.deleveraged += events.filter((e) => e.type === 'PositionDeleveraged').length;
    counts.cancelsRequested += events.filter((e) => e.type === 'ContractCancelRequested').length;
    checkPastMaintenanceWaits(s, index, `step ${step}`);
    checkInvariants(s.state, credited);
    // The engine lags: it may fill resting orders before their cancel reaches it. Every step is checked.
    counts.lateFills += engine.catchUp(int, id, () => checkInvariants(s.state, credited));
    for (const o of [...s.state.orders.values()].filter((x) => x.accountId === FUND))
      if (fillFundOrder(s, o, index, int, id)) counts.fundFills++;
    if (step % 10 === 9)
      s.apply('SettleFunding', {
        symbol: SYMBOL,
        fundingTime: step,
        rate: new Money(int(151) - 75).div(10000).toFixed(),
        markPrice: index.toFixed(),
      });
    checkInvariants(s.state, credited);
  }
  // The engine ends every cancel asked for; the relay's next marks take over what is still past maintenance.
  for (let round = 0; round < 3; round++) {
    for (const o of [...s.state.orders.values()].filter((x) => x.cancelRequested))
      s.given('EndContractOrder', { accountId: o.accountId, orderId: o.orderId, symbol: SYMBOL, status: 'CANCELED' });
    markAt(index);
    checkInvariants(s.state, credited);
  }
  for (const p of s.state.positions.values()) {
    if (p.accountId !== FUND && pastMaintenance(p, CONFIG, index))
      throw new Error(`end: ${p.accountId} ${p.side} is past maintenance at ${index.toFixed()} and still open`);
  }
  checkFlowsExplainBalances(s.journal, s.state);
  expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(
    contractsStateHash(s.state),
  );
  return counts;
}

/** Now and then two holders rest an order near the index: a close of part of what they hold, or an open adding to it. */
function restOrders(s: ContractScenario, index: Money, int: (n: number) => number, id: () => string): void {
  const held = [...s.state.positions.values()].filter(
    (p) => p.accountId !== FUND && p.accountId !== MAKER && p.size.gt(0),
  );
  for (let k = 0; k < 2 && held.length > 0; k++) {
    const p = held[int(held.length)]!;
    const price = index
      .times(99 + int(3))
      .div(100)
      .toNearest(TICK, Money.ROUND_DOWN)
      .toFixed();
    const available = p.size.minus(p.closing);
    const choice = int(3);
    if (choice === 0 && available.gt(0))
      s.order(
        p.accountId,
        id(),
        p.side === 'LONG' ? 'SELL_CLOSE' : 'BUY_CLOSE',
        String(1 + int(Number(available))),
        price,
      );
    else if (choice === 1)
      s.order(
        p.accountId,
        id(),
        p.side === 'LONG' ? 'BUY_OPEN' : 'SELL_OPEN',
        String(1 + int(50)),
        price,
        p.leverage.toFixed(),
      );
  }
}

/** After a mark, a position past maintenance is still open only while the engine has yet to end orders its liquidation waits for (its own, or its deleveraging counterparties'). */
function checkPastMaintenanceWaits(s: ContractScenario, index: Money, when: string): void {
  const waiting = new Set(
    [...s.state.orders.values()].filter((o) => o.cancelRequested).map((o) => positionSideOf(o.side)),
  );
  for (const p of s.state.positions.values()) {
    if (p.accountId === FUND || !pastMaintenance(p, CONFIG, index)) continue;
    const own = [...(s.state.positionOrders.get(positionKey(p.accountId, SYMBOL, p.side)) ?? [])].map((orderId) =>
      s.state.orders.get(orderId)!,
    );
    const opposite = p.side === 'LONG' ? 'SHORT' : 'LONG';
    if (own.some((o) => o.cancelRequested) && own.every((o) => o.cancelRequested)) continue;
    if (own.length === 0 && waiting.has(opposite)) continue;
    throw new Error(
      `${when}: ${p.accountId} ${p.side} is past maintenance at ${index.toFixed()} and still open, waiting for nothing`,
    );
  }
}

/**
 * The engine's book as the engine holds it, from the commands the journal sends it (not from the
 * ledger's fold): users' LIMIT orders rest there until filled or until the engine takes a cancel
 * (a requested one, or one the ledger sent after ending the order itself).
 */
class EngineBook {
  private readonly resting = new Map<string, { accountId: string; side: string; price: string; left: number }>();
  private readonly cancelSent = new Set<string>();
  private read = 0;

  constructor(private readonly s: ContractScenario) {
    this.read = s.journal.length;
  }

  /** Late outcomes: a resting order may be filled (all or part, by the maker, at its price) before a cancel sent for it arrives; then that cancel may arrive. */
  catchUp(int: (n: number) => number, id: () => string, check: () => void): number {
    this.sync();
    let fills = 0;
    for (const [orderId, o] of [...this.resting]) {
      if (int(3) === 0) {
        const filled = 1 + int(o.left);
        const makerOrder = id();
        this.s.order(
          MAKER,
          makerOrder,
          o.side.startsWith('BUY') ? 'SELL_OPEN' : 'BUY_OPEN',
          String(filled),
          o.price,
          '1',
        );
        // Both legs must settle: the ledger still holds the order whatever it asked the engine.
        this.s.trade(
          { accountId: o.accountId, orderId },
          { accountId: MAKER, orderId: makerOrder },
          String(filled),
          o.price,
          id(),
        );
        if (this.cancelSent.has(orderId)) fills++;
        if ((o.left -= filled) === 0) this.resting.delete(orderId);
        check();
      }
      if (this.resting.has(orderId) && this.cancelSent.has(orderId) && int(2) === 0) {
        this.resting.delete(orderId);
        if (this.s.state.orders.has(orderId))
          this.s.given('EndContractOrder', { accountId: o.accountId, orderId, symbol: SYMBOL, status: 'CANCELED' });
      }
    }
    this.sync();
    return fills;
  }

  private sync(): void {
    for (const e of this.s.journal.slice(this.read)) {
      if (
        e.type === 'ContractOrderPlaced' &&
        e.payload.order.orderType === 'LIMIT' &&
        ![FUND, MAKER].includes(e.payload.order.accountId)
      ) {
        const o = e.payload.order;
        this.resting.set(o.orderId, { accountId: o.accountId, side: o.side, price: o.price, left: Number(o.quantity) });
      }
      if (
        e.type === 'ContractCancelRequested' ||
        (e.type === 'ContractOrderEnded' && e.payload.reason === 'LIQUIDATION')
      )
        this.cancelSent.add(e.payload.order.orderId);
    }
    this.read = this.s.journal.length;
  }
}

/** The maker fills an IOC of the fund at the mark (all of it, part of it, or none), and the rest expires. */
function fillFundOrder(
  s: ContractScenario,
  o: ContractOrderRecord,
  mark: Money,
  int: (n: number) => number,
  id: () => string,
): boolean {
  const quantity = Number(o.quantity) - Number(o.executedQty);
  const filled = [quantity, 1 + int(quantity), 0][int(3)]!;
  if (filled > 0) {
    const makerOrder = id();
    s.order(MAKER, makerOrder, o.side === 'SELL_CLOSE' ? 'BUY_OPEN' : 'SELL_OPEN', String(filled), mark.toFixed(), '1');
    s.trade(
      { accountId: MAKER, orderId: makerOrder },
      { accountId: FUND, orderId: o.orderId },
      String(filled),
      mark.toFixed(),
      id(),
    );
  }
  if (filled < quantity)
    s.given('EndContractOrder', { accountId: FUND, orderId: o.orderId, symbol: SYMBOL, status: 'EXPIRED' });
  return filled > 0;
}

describe('Contracts: a price crash', () => {
  it('keeps every balance non-negative, sizes matched, USDT conserved at every step, the engine lagging; no position past maintenance unless it waits for the engine', () => {
    const totals = { liquidated: 0, deleveraged: 0, fundFills: 0, cancelsRequested: 0, lateFills: 0 };
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const counts = crash(seed);
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += counts[k];
    }
    // The paths did what they are for: takeovers, deleveraging when the fund ran dry, fund closes,
    // cancels through the engine first, and fills of those orders the engine made before the cancel.
    expect(totals.cancelsRequested).toBeGreaterThan(5);
    expect(totals.lateFills).toBeGreaterThan(5);
    expect(totals.liquidated).toBeGreaterThan(10);
    expect(totals.deleveraged).toBeGreaterThan(0);
    expect(totals.fundFills).toBeGreaterThan(5);
  });
});
