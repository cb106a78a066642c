import { orderCommandSchema } from './order-commands.v1';
import { orderEventSchema } from './order-events.v2';
import { settlementCommandSchema } from './settlement-commands.v2';

const submit = {
  type: 'SubmitOrder',
  v: 1,
  id: '9001',
  ts: 1_700_000_000_000,
  payload: {
    symbol: 'BTCUSDT',
    orderId: '42',
    clientOrderId: 'c1',
    accountId: '7',
    userId: '3',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '30000.10',
    quantity: '0.5',
    marketsVersion: 1,
  },
};

describe('order contracts v1', () => {
  it('accepts a SubmitOrder with amounts as plain decimal strings and ids as integer strings', () => {
    expect(orderCommandSchema.parse(submit)).toEqual(submit);
  });

  it.each([
    ['a number for a price', { price: 30000.1 }],
    ['an exponent', { quantity: '5e-1' }],
    ['a signed amount', { quantity: '-0.5' }],
    ['a zero-padded id', { orderId: '042' }],
    ['an unknown order type', { type: 'STOP' }],
  ])('refuses %s', (_what, change) => {
    expect(orderCommandSchema.safeParse({ ...submit, payload: { ...submit.payload, ...change } }).success).toBe(false);
  });

  it('refuses a version it does not know instead of guessing its shape', () => {
    expect(orderCommandSchema.safeParse({ ...submit, v: 2 }).success).toBe(false);
  });

  it('reads BookChanged levels as [price, qty] pairs and settlement commands by type', () => {
    const book = {
      type: 'BookChanged',
      v: 2,
      id: '9001:3',
      ts: 1,
      payload: { symbol: 'BTCUSDT', updateIdFirst: 4, updateIdLast: 5, bids: [['30000.1', '0']], asks: [] },
    };
    expect(orderEventSchema.parse(book)).toEqual(book);
    const leg = {
      type: 'SettleTradeLeg',
      v: 2,
      id: '9001:s1',
      ts: 1,
      payload: {
        tradeId: '1',
        symbol: 'BTCUSDT',
        orderId: '42',
        matchOrderId: '41',
        accountId: '7',
        userId: '3',
        side: 'BUY',
        price: '30000.1',
        qty: '0.5',
        quoteQty: '15000.05',
        isMaker: false,
      },
    };
    expect(settlementCommandSchema.parse(leg)).toEqual(leg);
  });
});
