import type { LedgerCommand, LedgerJournalEvent } from '@exchange/contracts';
import { ledgerCommandSchema, orderCommandSchema } from '@exchange/contracts';
import { decide, type TradingContext } from './decide';
import { cancelOrderFor, submitOrderFor } from './order-commands-from-events';
import { Money } from './ledger-money';
import { tradeFlows } from './trade-flows';
import { DEFAULT_CLIENT_ID_WINDOW_MS, evolve, initialLedgerState } from './ledger-state';
import { assets, btcusdt } from './spot-market.fixtures';

const T0 = 1_700_000_000_000;
const FEES = '9000000001';
const ALICE = { userId: '100', accountId: '1001' };
const BOB = { userId: '200', accountId: '2001' };

type Payload<T extends LedgerCommand['type']> = Extract<LedgerCommand, { type: T }>['payload'];
let ids = 0;
function cmd<T extends LedgerCommand['type']>(type: T, payload: Payload<T>, ts = T0): LedgerCommand {
  return {
    type,
    v: type === 'ApplyOrderOutcome' || type === 'SettleTradeLeg' ? 2 : 1,
    id: `t${++ids}`,
    ts,
    payload,
  } as LedgerCommand;
}

/** Given/When/Then over the decider: the state is the fold of what it decided, no mocks. */
class Scenario {
  readonly state = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  now = T0;
  private offset = 0;

  when(command: LedgerCommand, at = this.now): LedgerJournalEvent[] {
    this.now = at;
    const offset = this.offset++;
    const ctx: TradingContext = {
      now: at,
      flowId: (k) => String(offset * 16 + k + 1),
      asset: (n) => assets[n],
      symbol: (s) => (s === 'BTCUSDT' ? btcusdt : undefined),
      feeAccountId: FEES,
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    return events;
  }

  given(...commands: LedgerCommand[]): this {
    for (const c of commands) {
      const [event] = this.when(c);
      if (event?.type === 'CommandRejected') throw new Error(`given ${c.type} was rejected: ${event.payload.msg}`);
    }
    return this;
  }

  balance(accountId: string, asset: string): { free: string; locked: string } {
    const b = this.state.accounts.get(accountId)?.balances.get(asset);
    return { free: (b?.free ?? new Money(0)).toFixed(), locked: (b?.locked ?? new Money(0)).toFixed() };
  }

  order(orderId: string) {
    return this.state.orders.get(orderId);
  }

  /** Every balance and order: what a rejection must leave as it was (only the user's seq moves). */
  holdings(): string {
    const balances = [...this.state.accounts].flatMap(([id, a]) =>
      [...a.balances].map(([asset, b]) => `${id}|${asset}|${b.free.toFixed()}|${b.locked.toFixed()}`),
    );
    return JSON.stringify([
      balances,
      [...this.state.orders.values()],
      [...this.state.clientIds].map(([id, m]) => [id, [...m]]),
    ]);
  }
}

const users = [
  cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
  cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
  cmd('CreditDeposit', { ...ALICE, depositId: '1', asset: 'USDT', amount: '10000' }),
  cmd('CreditDeposit', { ...BOB, depositId: '2', asset: 'BTC', amount: '1' }),
];

type Terms = Partial<Payload<'PlaceOrder'>> & Pick<Payload<'PlaceOrder'>, 'orderId' | 'side'>;
function place(who: { userId: string; accountId: string }, terms: Terms): LedgerCommand {
  return cmd('PlaceOrder', {
    ...who,
    clientOrderId: `c${terms.orderId}`,
    symbol: 'BTCUSDT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    marketsVersion: 1,
    ...terms,
  });
}
function outcome(
  who: { userId: string; accountId: string },
  orderId: string,
  side: 'BUY' | 'SELL',
  out: Payload<'ApplyOrderOutcome'>['outcome'],
  extra: Partial<Payload<'ApplyOrderOutcome'>> = {},
): LedgerCommand {
  return cmd('ApplyOrderOutcome', { ...who, symbol: 'BTCUSDT', orderId, side, outcome: out, ...extra });
}
function leg(
  who: { userId: string; accountId: string },
  orderId: string,
  side: 'BUY' | 'SELL',
  t: { tradeId: string; price: string; qty: string; isMaker: boolean },
): LedgerCommand {
  const quoteQty = new Money(t.price).times(t.qty).toFixed();
  return cmd('SettleTradeLeg', { ...who, symbol: 'BTCUSDT', orderId, matchOrderId: '0', side, quoteQty, ...t });
}

describe('ledger trading: placing orders', () => {
  it.each([
    ['LIMIT BUY: price × quantity of quote', { side: 'BUY', price: '30000.01', quantity: '0.5' }, 'USDT', '15000.005'],
    [
      'LIMIT BUY: rounded up to the quote precision',
      { side: 'BUY', price: '30000.01', quantity: '0.00001' },
      'USDT',
      '0.300001',
    ],
    [
      'LIMIT_MAKER BUY like a LIMIT',
      { side: 'BUY', type: 'LIMIT_MAKER', price: '20000', quantity: '0.1' },
      'USDT',
      '2000',
    ],
    ['LIMIT SELL: quantity of base', { side: 'SELL', price: '30000', quantity: '0.5' }, 'BTC', '0.5'],
    ['MARKET SELL: quantity of base', { side: 'SELL', type: 'MARKET', quantity: '0.25' }, 'BTC', '0.25'],
    ['MARKET BUY: its quote amount', { side: 'BUY', type: 'MARKET', quoteOrderQty: '100.5' }, 'USDT', '100.5'],
  ] as const)('reserves for a %s', (_what, terms, asset, amount) => {
    const s = new Scenario().given(
      ...users,
      cmd('CreditDeposit', { ...ALICE, depositId: '3', asset: 'BTC', amount: '1' }),
      cmd('CreditDeposit', { ...ALICE, depositId: '4', asset: 'USDT', amount: '10000' }),
    );
    const free = new Money(s.balance('1001', asset).free);
    const [event] = s.when(place(ALICE, { orderId: '7', ...terms }));
    expect(event).toMatchObject({
      type: 'OrderPlaced',
      v: 2,
      payload: { order: { reservedAsset: asset, reservedAmount: amount } },
    });
    expect(s.order('7')).toMatchObject({
      status: 'NEW',
      executedQty: '0',
      isWorking: false,
      time: T0,
      reservationLeft: amount,
    });
    expect(s.balance('1001', asset)).toEqual({ free: free.minus(amount).toFixed(), locked: amount });
  });

  it('refuses an order above the free balance (-1131) and changes nothing', () => {
    const s = new Scenario().given(...users);
    const before = s.holdings();
    const [event] = s.when(place(ALICE, { orderId: '7', side: 'BUY', price: '30000', quantity: '0.33334' }));
    expect(event).toMatchObject({ type: 'CommandRejected', payload: { code: -1131, commandType: 'PlaceOrder' } });
    expect(s.holdings()).toBe(before);
    expect(s.balance('1001', 'USDT')).toEqual({ free: '10000', locked: '0' });
  });

  it('refuses an account that may not trade (-2010) and an unknown symbol (-1121)', () => {
    const s = new Scenario().given(...users, cmd('SetAccountFlags', { ...ALICE, canTrade: false }));
    expect(s.when(place(ALICE, { orderId: '7', side: 'BUY', price: '1', quantity: '1' }))[0]).toMatchObject({
      payload: { code: -2010 },
    });
    expect(
      s.when(place(BOB, { orderId: '8', side: 'SELL', price: '1', quantity: '1', symbol: 'DOGEUSDT' }))[0],
    ).toMatchObject({ payload: { code: -1121 } });
    expect(s.state.orders.size).toBe(0);
  });

  it('keeps a client order id while the order is open and for 24 h after it is final (-1141), then frees it', () => {
    const s = new Scenario().given(
      ...users,
      place(ALICE, { orderId: '7', side: 'BUY', price: '100', quantity: '1', clientOrderId: 'mine' }),
    );
    expect(
      s.when(place(ALICE, { orderId: '8', side: 'BUY', price: '100', quantity: '1', clientOrderId: 'mine' }))[0],
    ).toMatchObject({ payload: { code: -1141 } });
    const canceledAt = T0 + 1000;
    s.when(outcome(ALICE, '7', 'BUY', 'CANCELED', { reason: 'USER', remainingQty: '1' }), canceledAt);
    expect(
      s.when(
        place(ALICE, { orderId: '9', side: 'BUY', price: '100', quantity: '1', clientOrderId: 'mine' }),
        canceledAt + DEFAULT_CLIENT_ID_WINDOW_MS - 1,
      )[0],
    ).toMatchObject({ payload: { code: -1141 } });
    expect(
      s.when(place(BOB, { orderId: '10', side: 'SELL', price: '100', quantity: '1', clientOrderId: 'mine' }))[0],
    ).toMatchObject({ type: 'OrderPlaced' });
    const [again] = s.when(
      place(ALICE, { orderId: '11', side: 'BUY', price: '100', quantity: '1', clientOrderId: 'mine' }),
      canceledAt + DEFAULT_CLIENT_ID_WINDOW_MS,
    );
    expect(again).toMatchObject({ type: 'OrderPlaced', payload: { order: { orderId: '11', clientOrderId: 'mine' } } });
    expect(s.order('7')).toBeUndefined();
    expect(s.state.clientIds.get('1001')?.get('mine')).toBe('11');
  });

  it("derives the engine's SubmitOrder from OrderPlaced, sized by the order type", () => {
    const s = new Scenario().given(...users);
    const [limit] = s.when(place(BOB, { orderId: '7', side: 'SELL', price: '30000', quantity: '0.5' }));
    const [market] = s.when(
      place(ALICE, { orderId: '8', side: 'BUY', type: 'MARKET', timeInForce: 'IOC', quoteOrderQty: '100' }),
    );
    if (limit?.type !== 'OrderPlaced' || market?.type !== 'OrderPlaced') throw new Error('not placed');
    const submit = submitOrderFor(limit);
    expect(orderCommandSchema.parse(submit)).toEqual(submit);
    expect(submit).toEqual({
      type: 'SubmitOrder',
      v: 1,
      id: limit.id,
      ts: limit.ts,
      payload: {
        symbol: 'BTCUSDT',
        orderId: '7',
        clientOrderId: 'c7',
        accountId: '2001',
        userId: '200',
        side: 'SELL',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '30000',
        quantity: '0.5',
        marketsVersion: 1,
      },
    });
    expect(submitOrderFor(market).payload).toMatchObject({ type: 'MARKET', quoteAmount: '100' });
    expect(submitOrderFor(market).payload).not.toHaveProperty('quantity');
  });
});

describe('ledger trading: a trade between two users', () => {
  /** bob's SELL 0.5 @ 29500 rests; alice's BUY 0.12345 @ 30000 takes it at 29500. */
  function traded(): Scenario {
    return new Scenario().given(
      ...users,
      place(BOB, { orderId: '7', side: 'SELL', price: '29500', quantity: '0.5' }),
      outcome(BOB, '7', 'SELL', 'ACCEPTED', { remainingQty: '0.5' }),
      outcome(BOB, '7', 'SELL', 'RESTED', { remainingQty: '0.5' }),
      place(ALICE, { orderId: '8', side: 'BUY', price: '30000', quantity: '0.12345' }),
      outcome(ALICE, '8', 'BUY', 'ACCEPTED', { remainingQty: '0.12345' }),
    );
  }
  const trade = { tradeId: '1', price: '29500', qty: '0.12345' };

  it('settles the taker BUY leg: TRADE out of locked quote, TRADE and FEE (rounded up) in base, fee account credited', () => {
    const s = traded();
    expect(s.balance('1001', 'USDT')).toEqual({ free: '6296.5', locked: '3703.5' });
    const [event] = s.when(leg(ALICE, '8', 'BUY', { ...trade, isMaker: false }));
    // 0.12345 × 0.0015 = 0.000185175, rounded up to 8 decimals
    expect(event).toMatchObject({
      type: 'TradeSettled',
      payload: {
        trade: {
          tradeId: '1',
          orderId: '8',
          price: '29500',
          qty: '0.12345',
          quoteQty: '3641.775',
          commission: '0.00018518',
          commissionAsset: 'BTC',
          isBuyer: true,
          isMaker: false,
        },
        order: {
          status: 'PARTIALLY_FILLED',
          executedQty: '0.12345',
          cummulativeQuoteQty: '3641.775',
          reservationLeft: '61.725',
        },
        feeAccountId: FEES,
      },
    });
    if (event?.type !== 'TradeSettled') throw new Error('not settled');
    // The flows follow from the trade and the balances after it, as v1 wrote them.
    expect(tradeFlows(event)).toMatchObject([
      { accountId: '1001', asset: 'USDT', flowType: 'TRADE', change: '-3641.775', total: '6358.225' },
      { accountId: '1001', asset: 'BTC', flowType: 'TRADE', change: '0.12345', total: '0.12345' },
      { accountId: '1001', asset: 'BTC', flowType: 'FEE', change: '-0.00018518', total: '0.12326482' },
      { accountId: FEES, asset: 'BTC', flowType: 'FEE', change: '0.00018518', total: '0.00018518' },
    ]);
    const first = Number(event.payload.firstFlowId);
    expect(tradeFlows(event).map((f) => f.flowId)).toEqual([0, 1, 2, 3].map((k) => String(first + k)));
    expect(s.state.accounts.get(FEES)?.record).toEqual({
      accountId: FEES,
      userId: '0',
      accountType: 1,
      accountIndex: 0,
      accountName: 'fees',
    });
  });

  it('settles the maker SELL leg with the maker fee in quote, then FILLED releases what the better price left', () => {
    const s = traded();
    s.when(leg(ALICE, '8', 'BUY', { ...trade, isMaker: false }));
    const [makerLeg] = s.when(leg(BOB, '7', 'SELL', { ...trade, isMaker: true }));
    expect(makerLeg).toMatchObject({
      payload: {
        trade: { commission: '3.641775', commissionAsset: 'USDT', isBuyer: false, isMaker: true },
        order: { status: 'PARTIALLY_FILLED', executedQty: '0.12345', reservationLeft: '0.37655' },
      },
    });
    if (makerLeg?.type !== 'TradeSettled') throw new Error('not settled');
    expect(tradeFlows(makerLeg)).toMatchObject([
      { accountId: '2001', asset: 'BTC', flowType: 'TRADE', change: '-0.12345', total: '0.87655' },
      { accountId: '2001', asset: 'USDT', flowType: 'TRADE', change: '3641.775', total: '3641.775' },
      { accountId: '2001', asset: 'USDT', flowType: 'FEE', change: '-3.641775', total: '3638.133225' },
      { accountId: FEES, asset: 'USDT', flowType: 'FEE', change: '3.641775', total: '3.641775' },
    ]);
    const [filled] = s.when(outcome(ALICE, '8', 'BUY', 'FILLED'));
    expect(filled).toMatchObject({
      type: 'OrderOutcomeApplied',
      payload: { order: { status: 'FILLED', isWorking: false }, released: { asset: 'USDT', amount: '61.725' } },
    });
    expect(s.order('8')).toMatchObject({ status: 'FILLED', reservationLeft: '0', finalTime: T0 });
    expect(s.balance('1001', 'USDT')).toEqual({ free: '6358.225', locked: '0' });
    expect(s.balance('1001', 'BTC')).toEqual({ free: '0.12326482', locked: '0' });
    expect(s.balance('2001', 'BTC')).toEqual({ free: '0.5', locked: '0.37655' });
    expect(s.balance(FEES, 'BTC')).toEqual({ free: '0.00018518', locked: '0' });
    expect(s.balance(FEES, 'USDT')).toEqual({ free: '3.641775', locked: '0' });
    expect(s.order('7')).toMatchObject({ status: 'PARTIALLY_FILLED', isWorking: true });
  });

  it("cancels the maker's remainder by client id: PENDING_CANCEL, then CANCELED releases it", () => {
    const s = traded();
    s.when(leg(BOB, '7', 'SELL', { ...trade, isMaker: true }));
    const [requested] = s.when(cmd('RequestCancel', { ...BOB, clientOrderId: 'c7' }));
    expect(requested).toMatchObject({
      type: 'OrderCancelRequested',
      payload: { order: { orderId: '7', status: 'PENDING_CANCEL' } },
    });
    if (requested?.type !== 'OrderCancelRequested') throw new Error('not requested');
    expect(cancelOrderFor(requested)).toEqual({
      type: 'CancelOrder',
      v: 1,
      id: requested.id,
      ts: requested.ts,
      payload: { symbol: 'BTCUSDT', orderId: '7', accountId: '2001', userId: '200' },
    });
    expect(s.when(cmd('RequestCancel', { ...BOB, orderId: '7' }))[0]).toMatchObject({ payload: { code: -2011 } });
    const [canceled] = s.when(outcome(BOB, '7', 'SELL', 'CANCELED', { reason: 'USER', remainingQty: '0.37655' }));
    expect(canceled).toMatchObject({
      payload: { order: { status: 'CANCELED' }, released: { asset: 'BTC', amount: '0.37655' } },
    });
    expect(s.order('7')).toMatchObject({ status: 'CANCELED', executedQty: '0.12345', reservationLeft: '0' });
    expect(s.balance('2001', 'BTC')).toEqual({ free: '0.87655', locked: '0' });
    expect(s.when(cmd('RequestCancel', { ...BOB, orderId: '7' }))[0]).toMatchObject({ payload: { code: -1142 } });
  });

  it("refuses to cancel a filled order (-1139), another account's order or an unknown one (-2013)", () => {
    const s = traded();
    s.when(leg(ALICE, '8', 'BUY', { ...trade, isMaker: false }));
    s.when(outcome(ALICE, '8', 'BUY', 'FILLED'));
    expect(s.when(cmd('RequestCancel', { ...ALICE, orderId: '8' }))[0]).toMatchObject({ payload: { code: -1139 } });
    expect(s.when(cmd('RequestCancel', { ...ALICE, orderId: '7' }))[0]).toMatchObject({ payload: { code: -2013 } });
    expect(s.when(cmd('RequestCancel', { ...ALICE, clientOrderId: 'nope' }))[0]).toMatchObject({
      payload: { code: -2013 },
    });
  });

  it('ends a PENDING_CANCEL order filled before the engine saw the cancel', () => {
    const s = traded();
    s.when(cmd('RequestCancel', { ...ALICE, orderId: '8' }));
    expect(s.when(leg(ALICE, '8', 'BUY', { ...trade, isMaker: false }))[0]).toMatchObject({
      payload: { order: { status: 'PENDING_CANCEL', executedQty: '0.12345' } },
    });
    expect(s.when(outcome(ALICE, '8', 'BUY', 'FILLED'))[0]).toMatchObject({
      payload: { order: { status: 'FILLED' }, released: { amount: '61.725' } },
    });
  });

  it('refuses a leg that pays more than the order holds (-1001) and changes nothing', () => {
    const s = traded();
    const before = s.holdings();
    const [event] = s.when(leg(ALICE, '8', 'BUY', { tradeId: '1', price: '30000', qty: '0.2', isMaker: false }));
    expect(event).toMatchObject({ type: 'CommandRejected', payload: { code: -1001, commandType: 'SettleTradeLeg' } });
    expect(s.holdings()).toBe(before);
  });
});

describe('ledger trading: market and maker-only orders', () => {
  it('spends a MARKET BUY by quote and releases the unspent quote when it is FILLED', () => {
    const s = new Scenario().given(
      ...users,
      place(BOB, { orderId: '7', side: 'SELL', price: '30000', quantity: '0.003' }),
      outcome(BOB, '7', 'SELL', 'RESTED', { remainingQty: '0.003' }),
      place(ALICE, { orderId: '8', side: 'BUY', type: 'MARKET', timeInForce: 'IOC', quoteOrderQty: '100' }),
      leg(ALICE, '8', 'BUY', { tradeId: '1', price: '30000', qty: '0.003', isMaker: false }),
    );
    const [filled] = s.when(outcome(ALICE, '8', 'BUY', 'FILLED', { unspentQuote: '10' }));
    expect(filled).toMatchObject({
      payload: { order: { status: 'FILLED' }, released: { asset: 'USDT', amount: '10' } },
    });
    expect(s.order('8')).toMatchObject({ status: 'FILLED', executedQty: '0.003', cummulativeQuoteQty: '90' });
    expect(s.balance('1001', 'USDT')).toEqual({ free: '9910', locked: '0' });
    expect(s.balance('1001', 'BTC')).toEqual({ free: '0.0029955', locked: '0' });
  });

  it('keeps a LIMIT_MAKER that would take as REJECTED, releases its funds, and refuses to cancel it (-2011)', () => {
    const s = new Scenario().given(
      ...users,
      place(ALICE, { orderId: '8', side: 'BUY', type: 'LIMIT_MAKER', price: '30000', quantity: '0.1' }),
    );
    const [rejected] = s.when(
      outcome(ALICE, '8', 'BUY', 'REJECTED', { reason: 'LIMIT_MAKER_WOULD_TAKE', remainingQty: '0.1' }),
    );
    expect(rejected).toMatchObject({
      payload: {
        outcome: 'REJECTED',
        reason: 'LIMIT_MAKER_WOULD_TAKE',
        order: { status: 'REJECTED' },
        released: { asset: 'USDT', amount: '3000' },
      },
    });
    expect(s.balance('1001', 'USDT')).toEqual({ free: '10000', locked: '0' });
    expect(s.order('8')).toMatchObject({ status: 'REJECTED' });
    expect(s.when(cmd('RequestCancel', { ...ALICE, orderId: '8' }))[0]).toMatchObject({ payload: { code: -2011 } });
  });

  it('accepts a RequestCancel only with an orderId or a clientOrderId', () => {
    expect(ledgerCommandSchema.safeParse(cmd('RequestCancel', { ...ALICE, orderId: '8' })).success).toBe(true);
    expect(ledgerCommandSchema.safeParse(cmd('RequestCancel', { ...ALICE })).success).toBe(false);
  });
});
