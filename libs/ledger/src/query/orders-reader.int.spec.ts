import type { LedgerCommand } from '@exchange/contracts';
import { ledgerCommand as cmd, ledgerJournal, ReadModelSchema, T0 } from '../../../../test/support/read-model-schema';
import { OrdersReader } from './orders-reader';

const ALICE = { userId: '100', accountId: '1001' };
const BOB = { userId: '200', accountId: '2001' };
type Who = typeof ALICE;
type Terms = { orderId: string; side: 'BUY' | 'SELL'; price: string; quantity: string };

const place = (who: Who, terms: Terms): LedgerCommand =>
  cmd('PlaceOrder', {
    ...who,
    clientOrderId: `c${terms.orderId}`,
    symbol: 'BTCUSDT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    marketsVersion: 1,
    ...terms,
  });
const outcome = (
  who: Who,
  orderId: string,
  side: 'BUY' | 'SELL',
  out: 'ACCEPTED' | 'RESTED' | 'FILLED' | 'CANCELED',
  remainingQty?: string,
): LedgerCommand =>
  cmd('ApplyOrderOutcome', {
    ...who,
    symbol: 'BTCUSDT',
    orderId,
    side,
    outcome: out,
    ...(remainingQty ? { remainingQty } : {}),
    ...(out === 'CANCELED' ? { reason: 'USER' } : {}),
  });
const leg = (who: Who, orderId: string, side: 'BUY' | 'SELL', tradeId: string, isMaker: boolean): LedgerCommand =>
  cmd('SettleTradeLeg', {
    ...who,
    symbol: 'BTCUSDT',
    orderId,
    matchOrderId: '0',
    side,
    tradeId,
    price: '29500',
    qty: '0.1',
    quoteQty: '2950',
    isMaker,
  });

/** The ledger's migrations, its projection of decided events and OrdersReader, together on PostgreSQL. */
describe('OrdersReader on the order and trade tables the ledger projects', () => {
  let tables: ReadModelSchema;
  let reader: OrdersReader;

  beforeAll(async () => {
    tables = await ReadModelSchema.open('ledger');
    reader = new OrdersReader(tables.queries);
    // bob's SELL 7 rests; alice's BUY 8 takes 0.2 of it in two trades and is FILLED; alice's BUY 9
    // rests below the market; alice's BUY 10 is canceled.
    await tables.projectLedger(
      ledgerJournal([
        cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
        cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
        cmd('CreditDeposit', { ...ALICE, depositId: '1', asset: 'USDT', amount: '10000' }),
        cmd('CreditDeposit', { ...BOB, depositId: '2', asset: 'BTC', amount: '1' }),
        place(BOB, { orderId: '7', side: 'SELL', price: '29500', quantity: '0.5' }),
        outcome(BOB, '7', 'SELL', 'ACCEPTED', '0.5'),
        outcome(BOB, '7', 'SELL', 'RESTED', '0.5'),
        place(ALICE, { orderId: '8', side: 'BUY', price: '30000', quantity: '0.2' }),
        outcome(ALICE, '8', 'BUY', 'ACCEPTED', '0.2'),
        leg(ALICE, '8', 'BUY', '1', false),
        leg(BOB, '7', 'SELL', '1', true),
        leg(ALICE, '8', 'BUY', '2', false),
        leg(BOB, '7', 'SELL', '2', true),
        outcome(ALICE, '8', 'BUY', 'FILLED'),
        place(ALICE, { orderId: '9', side: 'BUY', price: '100', quantity: '1' }),
        outcome(ALICE, '9', 'BUY', 'ACCEPTED', '1'),
        outcome(ALICE, '9', 'BUY', 'RESTED', '1'),
        place(ALICE, { orderId: '10', side: 'BUY', price: '100', quantity: '1' }),
        outcome(ALICE, '10', 'BUY', 'CANCELED', '1'),
      ]),
    );
  });
  afterAll(async () => tables.close());

  it('finds an order of the account by id or by client id, and no order of another account', async () => {
    expect(await reader.order('1001', '8', undefined)).toMatchObject({
      orderId: '8',
      status: 'FILLED',
      executedQty: '0.2',
    });
    expect(await reader.order('1001', undefined, 'c9')).toMatchObject({ orderId: '9', status: 'NEW' });
    expect(await reader.order('1001', '8', 'c9')).toBeUndefined();
    expect(await reader.order('2001', '8', undefined)).toBeUndefined();
  });

  it('lists open orders and history apart, newest first, by symbol, id and time', async () => {
    expect((await reader.openOrders({ accountId: '1001', limit: 10 })).map((o) => o.orderId)).toEqual(['9']);
    expect(
      (await reader.openOrders({ accountId: '2001', symbol: 'BTCUSDT', limit: 10 })).map((o) => [o.orderId, o.status]),
    ).toEqual([['7', 'PARTIALLY_FILLED']]);
    expect((await reader.historyOrders({ accountId: '1001', limit: 10 })).map((o) => [o.orderId, o.status])).toEqual([
      ['10', 'CANCELED'],
      ['8', 'FILLED'],
    ]);
    expect(
      (await reader.historyOrders({ accountId: '1001', orderIdBelow: '10', limit: 10 })).map((o) => o.orderId),
    ).toEqual(['8']);
    expect((await reader.historyOrders({ accountId: '1001', symbol: 'ETHUSDT', limit: 10 })).length).toBe(0);
    expect(
      (await reader.historyOrders({ accountId: '1001', startTime: T0 + 17, limit: 10 })).map((o) => o.orderId),
    ).toEqual(['10']);
  });

  it('pages myTrades by its four rules', async () => {
    const ids = async (q: { fromId?: string; toId?: string }): Promise<string[]> =>
      (await reader.trades({ accountId: '1001', limit: 10, ...q })).map((t) => t.tradeId);
    expect(await ids({})).toEqual(['2', '1']);
    expect(await ids({ fromId: '2' })).toEqual(['1']);
    expect(await ids({ toId: '0' })).toEqual(['1', '2']);
    expect(await ids({ fromId: '2', toId: '0' })).toEqual(['1']);
    expect((await reader.trades({ accountId: '2001', limit: 1 })).map((t) => [t.tradeId, t.isMaker])).toEqual([
      ['2', true],
    ]);
  });
});
