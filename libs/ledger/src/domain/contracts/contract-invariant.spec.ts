import type { ContractEvent, ContractOrderRecord, ContractSide } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import { seededRandom } from '../seeded-random.fixtures';
import { checkInvariants } from './contract-invariants.fixtures';
import { isOpening, positionSideOf } from './contract-decision';
import { evolveContracts, initialContractsState, totalUncovered } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { ContractScenario, shippedMarkets } from './contract-scenario.fixtures';

const ACCOUNTS = ['1001', '2001', '3001', '4001'];
const SIDES: ContractSide[] = ['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'];
const LEVERAGES = ['1', '2', '3', '5', '10', '20'];
const MARKETS = [
  { symbol: 'BTC-SWAP-USDT', base: new Money('50000'), tick: new Money('0.1') },
  { symbol: 'ETH-SWAP-USDT', base: new Money('3000'), tick: new Money('0.01') },
];

const remainingOf = (o: ContractOrderRecord) => new Money(o.quantity).minus(o.executedQty);
const isBuy = (o: ContractOrderRecord) => o.side.startsWith('BUY');

/**
 * Drives the contracts decider as the gateway and a naive engine would: orders around a wandering
 * price, trades at the maker's price between crossing orders of different accounts (maker leg,
 * then taker leg), cancels and expiries, margin changes, credits. Rejections are part of the
 * traffic (closes beyond the position, too little margin, leverage changes).
 */
class Simulation {
  readonly s = new ContractScenario();
  credited = ZERO;
  readonly counts = new Map<string, number>();
  private readonly marks = MARKETS.map((m) => m.base);
  private ids = 0;

  constructor(
    private readonly rnd: () => number,
    /** A trend, so that positions on the wrong side of it go past bankruptcy. */
    private readonly drift: number,
  ) {}

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[this.int(items.length)];
  }

  private count(what: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }

  credit(accountId: string, amount: string): void {
    this.s.credit(accountId, amount);
    this.credited = this.credited.plus(amount);
  }

  step(): void {
    const m = this.int(MARKETS.length);
    const market = MARKETS[m]!;
    // The price wanders up to 1% a step within ±15% of its start, so 20× positions go past bankruptcy now and then.
    const moved = this.marks[m]!.plus(market.base.times(this.int(41) - 20 + this.drift).div(2000));
    this.marks[m] = Money.min(market.base.times('1.15'), Money.max(market.base.times('0.85'), moved)).toNearest(
      market.tick,
      Money.ROUND_DOWN,
    );
    const r = this.rnd();
    if (r < 0.4) this.place(market.symbol, m);
    else if (r < 0.75) this.trade(market.symbol);
    else if (r < 0.87) this.end();
    else if (r < 0.97) this.modify(market.symbol, m);
    else this.credit(this.pick(ACCOUNTS)!, String(1 + this.int(5000)));
  }

  private place(symbol: string, m: number): void {
    const accountId = this.pick(ACCOUNTS)!;
    const side = this.pick(SIDES)!;
    const position = this.s.position(accountId, positionSideOf(side), symbol);
    const closeQty =
      Number(position.available) > 0 && this.rnd() < 0.9 ? 1 + this.int(Number(position.available)) : 1 + this.int(30);
    const quantity = String(isOpening(side) ? 1 + this.int(40) : closeQty);
    const spread = MARKETS[m]!.tick.times(this.int(200) - 100);
    const price = this.marks[m]!.plus(spread);
    const leverage = isOpening(side)
      ? position.leverage !== '0' && this.rnd() < 0.9
        ? position.leverage
        : this.pick(LEVERAGES)
      : undefined;
    const decision = this.s.order(accountId, String(++this.ids), side, quantity, price.toFixed(), leverage, symbol);
    this.count('rejection' in decision ? `rejected ${decision.rejection.code}` : 'placed');
  }

  private trade(symbol: string): void {
    const open = [...this.s.state.orders.values()].filter((o) => o.symbol === symbol);
    const pairs: [ContractOrderRecord, ContractOrderRecord][] = [];
    for (const buy of open.filter(isBuy)) {
      for (const sell of open.filter((o) => !isBuy(o)))
        if (buy.accountId !== sell.accountId && new Money(buy.price).gte(sell.price)) pairs.push([buy, sell]);
    }
    const pair = this.pick(pairs);
    if (!pair) return;
    const [maker, taker] = Number(pair[0].orderId) < Number(pair[1].orderId) ? pair : [pair[1], pair[0]];
    const most = Money.min(remainingOf(maker), remainingOf(taker)).toNumber();
    const quantity = String(1 + this.int(most));
    this.s.trade(maker, taker, quantity, maker.price, String(++this.ids), symbol);
    this.count('traded');
  }

  private end(): void {
    const order = this.pick([...this.s.state.orders.values()]);
    if (!order) return;
    this.s.given('EndContractOrder', {
      accountId: order.accountId,
      orderId: order.orderId,
      symbol: order.symbol,
      status: this.rnd() < 0.5 ? 'CANCELED' : 'EXPIRED',
    });
    this.count('ended');
  }

  private modify(symbol: string, m: number): void {
    const held = [...this.s.state.positions.values()].filter((p) => p.symbol === symbol && p.size.gt(0));
    const position = this.pick(held);
    if (!position) return;
    const amount = new Money(this.int(20000) - 10000).div(100);
    if (amount.isZero()) return;
    const decision = this.s.when('ModifyPositionMargin', {
      accountId: position.accountId,
      symbol,
      side: position.side,
      amount: amount.toFixed(),
      markPrice: this.marks[m]!.toFixed(),
    });
    this.count('rejection' in decision ? `margin rejected ${decision.rejection.code}` : 'margin modified');
  }

  /** Cancels every order and closes every position at the current price, longs against shorts. */
  flatten(): void {
    for (const o of [...this.s.state.orders.values()])
      this.s.given('EndContractOrder', {
        accountId: o.accountId,
        orderId: o.orderId,
        symbol: o.symbol,
        status: 'CANCELED',
      });
    MARKETS.forEach(({ symbol }, m) => {
      const price = this.marks[m]!.toFixed();
      for (;;) {
        const held = [...this.s.state.positions.values()].filter((p) => p.symbol === symbol && p.size.gt(0));
        const long = held.find((p) => p.side === 'LONG');
        const short = held.find((p) => p.side === 'SHORT');
        if (!long || !short) break;
        const quantity = Money.min(long.size, short.size).toFixed();
        const [sell, buy] = [String(++this.ids), String(++this.ids)];
        this.s.order(long.accountId, sell, 'SELL_CLOSE', quantity, price, undefined, symbol);
        this.s.order(short.accountId, buy, 'BUY_CLOSE', quantity, price, undefined, symbol);
        // In hedge mode one account may hold both sides; the domain settles a fill whoever the counterparty is.
        this.s.trade(
          { accountId: long.accountId, orderId: sell },
          { accountId: short.accountId, orderId: buy },
          quantity,
          price,
          String(++this.ids),
          symbol,
        );
      }
    });
  }
}

describe('Contracts: random trading between accounts', () => {
  it.each([1, 2, 3, 4])(
    'keeps sizes matched, USDT conserved, nothing negative, and replays to the same hash (seed %i)',
    (seed) => {
      const sim = new Simulation(seededRandom(seed), seed % 2 === 0 ? 3 : -3);
      for (const accountId of ACCOUNTS) sim.credit(accountId, '20000');
      // A replica folds the journal as it grows, through JSON as it is stored: the same hash at every step.
      let replica = initialContractsState();
      let folded = 0;
      for (let i = 0; i < 400; i++) {
        sim.step();
        checkInvariants(sim.s.state, sim.credited);
        for (const e of JSON.parse(JSON.stringify(sim.s.journal.slice(folded))) as ContractEvent[])
          replica = evolveContracts(replica, e);
        folded = sim.s.journal.length;
        expect(contractsStateHash(replica)).toBe(contractsStateHash(sim.s.state));
      }
      sim.flatten();
      checkInvariants(sim.s.state, sim.credited);
      // With every position closed, the plain sum is what was credited (plus what no margin covered).
      const cash = [...sim.s.state.balances.values()].reduce(
        (sum, b) => sum.plus(b.free).plus(b.locked).plus(b.positionMargin),
        ZERO,
      );
      expect(cash.minus(totalUncovered(sim.s.state)).toFixed()).toBe(sim.credited.toFixed());
      expect([...sim.s.state.positions.values()].every((p) => p.size.isZero())).toBe(true);

      const replayed = sim.s.journal.reduce(evolveContracts, initialContractsState());
      expect(contractsStateHash(replayed)).toBe(contractsStateHash(sim.s.state));
      // The traffic did what it is for: trades, closes, rejections of each kind.
      expect(sim.counts.get('traded') ?? 0).toBeGreaterThan(40);
      expect(shippedMarkets.contracts.length).toBe(2);
    },
  );

  it('exercises every path over the seeds: closes with PnL and past bankruptcy, -2022, leverage changes refused, margin moves both ways', () => {
    const totals = new Map<string, number>();
    let pnlFills = 0;
    let uncoveredFills = 0;
    for (const seed of [1, 2, 3, 4]) {
      const sim = new Simulation(seededRandom(seed), seed % 2 === 0 ? 3 : -3);
      for (const accountId of ACCOUNTS) sim.credit(accountId, '20000');
      for (let i = 0; i < 400; i++) sim.step();
      for (const [k, v] of sim.counts) totals.set(k, (totals.get(k) ?? 0) + v);
      const fills = sim.s.journal.flatMap((e) => (e.type === 'ContractOrderFilled' ? [e.payload] : []));
      pnlFills += fills.filter((f) => f.pnl !== '0').length;
      uncoveredFills += fills.filter((f) => f.uncovered !== '0').length;
    }
    expect(pnlFills).toBeGreaterThan(20);
    expect(uncoveredFills).toBeGreaterThan(0);
    for (const what of ['rejected -2022', 'rejected -1130', 'margin modified', 'margin rejected -1131', 'ended'])
      expect(totals.get(what) ?? 0).toBeGreaterThan(0);
  });
});
