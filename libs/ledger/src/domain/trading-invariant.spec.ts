import type { LedgerCommand, LedgerJournalEvent, LedgerOrderRecord } from '@exchange/contracts';
import { decide, type TradingContext } from './decide';
import { Money } from './ledger-money';
import { evolve, initialLedgerState, isFinal, type LedgerState } from './ledger-state';
import { ledgerStateHash } from './ledger-state-hash';
import { seededRandom as random } from './seeded-random.fixtures';
import { assets, btcusdt } from './spot-market.fixtures';

const users = ['101', '102', '103', '104'];
const accountOf = (userId: string) => `${userId}1`;

/**
 * Drives the ledger as the gateway and a naive engine would: orders, trades at the maker's price
 * between crossing orders of different accounts, fills, cancels, and now and then a bogus leg.
 */
class Simulation {
  readonly state: LedgerState = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  readonly deposits = new Map<string, Money>([
    ['BTC', new Money(0)],
    ['USDT', new Money(0)],
  ]);
  private n = 0;
  private tradeId = 0;

  constructor(private readonly rnd: () => number) {}

  send(type: LedgerCommand['type'], payload: object): LedgerJournalEvent[] {
    const n = ++this.n;
    const command = { type, v: 1, id: `r${n}`, ts: 1_700_000_000_000 + n, payload } as LedgerCommand;
    const ctx: TradingContext = {
      now: command.ts,
      flowId: (k) => String(n * 16 + k + 1),
      asset: (a) => assets[a],
      symbol: () => btcusdt,
      feeAccountId: `90000000${this.partitionOf(payload)}`,
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    return events;
  }

  /** Two "partitions", each with its fee account, as users split over partitions would be. */
  private partitionOf(payload: object): number {
    return Number((payload as { userId: string }).userId) % 2;
  }

  setup(): void {
    for (const userId of users) {
      this.send('CreateUser', { userId, name: userId, accountIds: [accountOf(userId), `${userId}2`, `${userId}3`] });
      for (const [asset, amount] of [
        ['BTC', '3'],
        ['USDT', '200'],
      ] as const) {
        this.send('CreditDeposit', {
          userId,
          accountId: accountOf(userId),
          depositId: String(++this.n),
          asset,
          amount,
        });
        this.deposits.set(asset, this.deposits.get(asset)!.plus(amount));
      }
    }
  }

  step(): void {
    const r = this.rnd();
    if (r < 0.45) this.place();
    else if (r < 0.8) this.trade();
    else if (r < 0.95) this.cancel();
    else this.bogusLeg();
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.rnd() * items.length)];
  }

  private open(): LedgerOrderRecord[] {
    return [...this.state.orders.values()]
      .filter((o) => !isFinal(o))
      .sort((a, b) => Number(a.orderId) - Number(b.orderId));
  }

  private place(): void {
    const userId = this.pick(users)!;
    const side = this.rnd() < 0.5 ? 'BUY' : 'SELL';
    const price = new Money(100 + Math.floor(this.rnd() * 1000) / 100).toFixed();
    const quantity = new Money(1 + Math.floor(this.rnd() * 150000)).div(100000).toFixed();
    const orderId = String(++this.n);
    const placed = this.send('PlaceOrder', {
      userId,
      accountId: accountOf(userId),
      orderId,
      clientOrderId: `c${Math.floor(this.rnd() * 20)}`,
      symbol: 'BTCUSDT',
      side,
      type: 'LIMIT',
      timeInForce: 'GTC',
      price,
      quantity,
      marketsVersion: 1,
    });
    if (placed[0]?.type !== 'OrderPlaced') return;
    this.outcome(this.state.orders.get(orderId)!, 'RESTED', new Money(quantity));
  }

  private trade(): void {
    const open = this.open().filter((o) => o.status !== 'PENDING_CANCEL');
    const buy = this.pick(open.filter((o) => o.side === 'BUY'));
    const sell =
      buy &&
      this.pick(
        open.filter((o) => o.side === 'SELL' && o.accountId !== buy.accountId && new Money(o.price).lte(buy.price)),
      );
    if (!buy || !sell) return;
    const maker = Number(buy.orderId) < Number(sell.orderId) ? buy : sell;
    const remaining = (o: LedgerOrderRecord) => new Money(o.origQty).minus(o.executedQty);
    const most = Money.min(remaining(buy), remaining(sell));
    const qty =
      this.rnd() < 0.5
        ? most
        : Money.max(most.times(this.rnd()).toDecimalPlaces(5, Money.ROUND_DOWN), new Money('0.00001'));
    const tradeId = String(++this.tradeId);
    for (const o of [buy, sell]) {
      this.send('SettleTradeLeg', {
        tradeId,
        symbol: 'BTCUSDT',
        orderId: o.orderId,
        accountId: o.accountId,
        userId: o.userId,
        side: o.side,
        price: maker.price,
        qty: qty.toFixed(),
        quoteQty: qty.times(maker.price).toFixed(),
        isMaker: o === maker,
      });
      const after = this.state.orders.get(o.orderId)!;
      if (remaining(after).isZero()) this.outcome(after, 'FILLED', new Money(0));
    }
  }

  private cancel(): void {
    const order = this.pick(this.open());
    if (!order) return;
    this.send('RequestCancel', { userId: order.userId, accountId: order.accountId, orderId: order.orderId });
    const remaining = new Money(order.origQty).minus(order.executedQty);
    if (this.rnd() < 0.8) this.outcome(this.state.orders.get(order.orderId)!, 'CANCELED', remaining);
  }

  /** A leg no engine should send: more than the order holds. It must be refused, not applied. */
  private bogusLeg(): void {
    const order = this.pick(this.open());
    if (!order) return;
    const qty = new Money(order.origQty).plus(1);
    const events = this.send('SettleTradeLeg', {
      tradeId: String(++this.tradeId),
      symbol: 'BTCUSDT',
      orderId: order.orderId,
      accountId: order.accountId,
      userId: order.userId,
      side: order.side,
      price: order.price,
      qty: qty.toFixed(),
      quoteQty: qty.times(order.price).toFixed(),
      isMaker: true,
    });
    expect(events[0]).toMatchObject({ type: 'CommandRejected', payload: { code: -1001 } });
  }

  private outcome(order: LedgerOrderRecord, outcome: 'RESTED' | 'FILLED' | 'CANCELED', remainingQty: Money): void {
    const { orderId, clientOrderId, accountId, userId, side } = order;
    this.send('ApplyOrderOutcome', {
      symbol: 'BTCUSDT',
      orderId,
      clientOrderId,
      accountId,
      userId,
      side,
      outcome,
      remainingQty: remainingQty.toFixed(),
      unspentQuote: '0',
    });
  }

  /** Per asset: the sum over every account, fee accounts included, of free + locked; and no negative amount. */
  checkInvariant(): void {
    const totals = new Map<string, Money>([
      ['BTC', new Money(0)],
      ['USDT', new Money(0)],
    ]);
    const negative: string[] = [];
    for (const [accountId, account] of this.state.accounts) {
      for (const [asset, b] of account.balances) {
        if (b.free.isNegative() || b.locked.isNegative()) negative.push(`${accountId} ${asset}`);
        totals.set(asset, totals.get(asset)!.plus(b.free).plus(b.locked));
      }
    }
    for (const order of this.state.orders.values())
      if (new Money(order.reservationLeft).isNegative()) negative.push(`order ${order.orderId}`);
    const sums = [...totals].map(([asset, total]) => `${asset} ${total.toFixed()}`);
    expect({ sums, negative }).toEqual({
      sums: [...this.deposits].map(([asset, total]) => `${asset} ${total.toFixed()}`),
      negative: [],
    });
  }
}

describe('ledger trading invariant over random sequences', () => {
  it.each([1, 7, 42, 2024])(
    'seed %i: balances sum to deposits, nothing goes negative, and the journal rebuilds the same state',
    (seed) => {
      const sim = new Simulation(random(seed));
      sim.setup();
      for (let i = 0; i < 400; i++) {
        sim.step();
        sim.checkInvariant();
      }
      const trades = sim.journal.filter((e) => e.type === 'TradeSettled').length;
      expect(trades).toBeGreaterThan(20);
      const rebuilt = sim.journal.reduce(evolve, initialLedgerState());
      expect(ledgerStateHash(rebuilt)).toBe(ledgerStateHash(sim.state));
    },
  );
});
