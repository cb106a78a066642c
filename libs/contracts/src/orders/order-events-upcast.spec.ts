import { ledgerCommandSchema } from '../ledger/ledger-trading-commands';
import { orderEventSchema } from './order-events.v2';
import { settlementCommandSchema } from './settlement-commands.v2';

/** Records exactly as journals written before v2 hold them (copied from a bench:soak journal). */
const v1 = {
  accepted: {
    type: 'OrderAccepted',
    v: 1,
    id: '374903559290881:0:0',
    ts: 1795596389369,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903559290881:0',
      orderId: '374903559290880',
      clientOrderId: 'x-BgMbiMHH5jnL',
      accountId: '374903539286017',
      userId: '374903539286016',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: '30000',
      quantity: '0.001',
      quoteAmount: '0',
    },
  },
  rested: {
    type: 'OrderRested',
    v: 1,
    id: '374903559290881:0:1',
    ts: 1795596389369,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903559290881:0',
      orderId: '374903559290880',
      clientOrderId: 'x-BgMbiMHH5jnL',
      accountId: '374903539286017',
      userId: '374903539286016',
      side: 'BUY',
      price: '30000',
      restingQty: '0.001',
    },
  },
  trade: {
    type: 'TradeExecuted',
    v: 1,
    id: '374903562625025:0:1',
    ts: 1795596390153,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903562625025:0',
      tradeId: '1',
      price: '30000',
      qty: '0.001',
      quoteQty: '30',
      takerOrderId: '374903562625024',
      makerOrderId: '374903559290880',
      takerClientOrderId: 'x-HIT8ClIAooL6',
      makerClientOrderId: 'x-BgMbiMHH5jnL',
      takerAccountId: '374903539351553',
      makerAccountId: '374903539286017',
      takerUserId: '374903539351552',
      makerUserId: '374903539286016',
      takerSide: 'SELL',
      isBuyerMaker: true,
      makerRemainingQty: '0',
      takerRemainingQty: '0',
      takerRemainingQuote: '0',
    },
  },
  filled: {
    type: 'OrderFilled',
    v: 1,
    id: '374903562625025:0:2',
    ts: 1795596390153,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903562625025:0',
      orderId: '374903562625024',
      clientOrderId: 'x-HIT8ClIAooL6',
      accountId: '374903539351553',
      userId: '374903539351552',
      side: 'SELL',
      unspentQuote: '0',
    },
  },
  canceled: {
    type: 'OrderCanceled',
    v: 1,
    id: '374903566827523:0:1',
    ts: 1795596391609,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903566827523:0',
      orderId: '374903566827522',
      clientOrderId: 'x-smAaoeQN1La_',
      accountId: '374903539359745',
      userId: '374903539359744',
      side: 'BUY',
      reason: 'SELF_TRADE_PREVENTION',
      remainingQty: '0.001',
      unspentQuote: '0.5',
    },
  },
  book: {
    type: 'BookChanged',
    v: 1,
    id: '374903559290881:0:2',
    ts: 1795596389369,
    payload: {
      symbol: 'BTCUSDT',
      commandId: '374903559290881:0',
      updateIdFirst: 1,
      updateIdLast: 1,
      bids: [['30000', '0.001']],
      asks: [],
    },
  },
};

describe('order events: v1 records read through the v2 consumer path', () => {
  it('upcasts each v1 event to v2, keeping what v2 keeps and leaving zero amounts out', () => {
    const read = (record: object): unknown => orderEventSchema.parse(JSON.parse(JSON.stringify(record)));
    expect(read(v1.accepted)).toEqual({
      type: 'OrderAccepted',
      v: 2,
      id: '374903559290881:0:0',
      ts: 1795596389369,
      payload: {
        symbol: 'BTCUSDT',
        orderId: '374903559290880',
        clientOrderId: 'x-BgMbiMHH5jnL',
        accountId: '374903539286017',
        userId: '374903539286016',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: '30000',
        quantity: '0.001',
      },
    });
    expect(read(v1.rested)).toEqual({
      type: 'OrderRested',
      v: 2,
      id: '374903559290881:0:1',
      ts: 1795596389369,
      payload: { symbol: 'BTCUSDT', orderId: '374903559290880', restingQty: '0.001' },
    });
    expect(read(v1.trade)).toEqual({
      type: 'TradeExecuted',
      v: 2,
      id: '374903562625025:0:1',
      ts: 1795596390153,
      payload: {
        symbol: 'BTCUSDT',
        tradeId: '1',
        price: '30000',
        qty: '0.001',
        takerOrderId: '374903562625024',
        makerOrderId: '374903559290880',
        isBuyerMaker: true,
        makerRemainingQty: '0',
        takerRemainingQty: '0',
      },
    });
    expect(read(v1.filled)).toEqual({
      type: 'OrderFilled',
      v: 2,
      id: '374903562625025:0:2',
      ts: 1795596390153,
      payload: { symbol: 'BTCUSDT', orderId: '374903562625024' },
    });
    expect(read(v1.canceled)).toEqual({
      type: 'OrderCanceled',
      v: 2,
      id: '374903566827523:0:1',
      ts: 1795596391609,
      payload: {
        symbol: 'BTCUSDT',
        orderId: '374903566827522',
        reason: 'SELF_TRADE_PREVENTION',
        remainingQty: '0.001',
        unspentQuote: '0.5',
      },
    });
    expect(read(v1.book)).toEqual({
      type: 'BookChanged',
      v: 2,
      id: '374903559290881:0:2',
      ts: 1795596389369,
      payload: { symbol: 'BTCUSDT', updateIdFirst: 1, updateIdLast: 1, bids: [['30000', '0.001']], asks: [] },
    });
  });

  it('still refuses a v1 record that was never valid, and a version it does not know', () => {
    expect(orderEventSchema.safeParse({ ...v1.trade, payload: { ...v1.trade.payload, price: 30000 } }).success).toBe(
      false,
    );
    expect(orderEventSchema.safeParse({ ...v1.book, v: 3 }).success).toBe(false);
  });
});

describe("ApplyOrderOutcome: v1 records read through the ledger's input path", () => {
  const outcome = (change: object) => ({
    type: 'ApplyOrderOutcome',
    v: 1,
    id: '374903566827523:0:s1',
    ts: 1795596391609,
    payload: {
      symbol: 'BTCUSDT',
      orderId: '374903566827522',
      clientOrderId: 'x-smAaoeQN1La_',
      accountId: '374903539359745',
      userId: '374903539359744',
      side: 'BUY',
      outcome: 'CANCELED',
      reason: 'SELF_TRADE_PREVENTION',
      remainingQty: '0.001',
      unspentQuote: '0',
      ...change,
    },
  });

  it('upcasts to v2: the client id left behind, zero amounts left out, the rest kept', () => {
    const expected = {
      type: 'ApplyOrderOutcome',
      v: 2,
      id: '374903566827523:0:s1',
      ts: 1795596391609,
      payload: {
        symbol: 'BTCUSDT',
        orderId: '374903566827522',
        accountId: '374903539359745',
        userId: '374903539359744',
        side: 'BUY',
        outcome: 'CANCELED',
        reason: 'SELF_TRADE_PREVENTION',
        remainingQty: '0.001',
      },
    };
    expect(ledgerCommandSchema.parse(outcome({}))).toEqual(expected);
    expect(settlementCommandSchema.parse(outcome({}))).toEqual(expected);
  });

  it('keeps the ACCEPTED steps old journals hold, and a v2 record as it is', () => {
    const accepted = ledgerCommandSchema.parse(
      outcome({ outcome: 'ACCEPTED', reason: undefined, remainingQty: '0.001' }),
    );
    expect(accepted).toMatchObject({ v: 2, payload: { outcome: 'ACCEPTED', remainingQty: '0.001' } });
    const v2 = {
      type: 'ApplyOrderOutcome',
      v: 2,
      id: 'c:s0',
      ts: 1,
      payload: { symbol: 'BTCUSDT', orderId: '9', accountId: '7', userId: '3', side: 'SELL', outcome: 'FILLED' },
    };
    expect(ledgerCommandSchema.parse(v2)).toEqual(v2);
  });
});

describe("SettleTradeLeg: v1 records read through the ledger's input path", () => {
  const v1 = {
    type: 'SettleTradeLeg',
    v: 1,
    id: '374903566827523:0:s0',
    ts: 1795596391609,
    payload: {
      tradeId: '1',
      symbol: 'BTC-SWAP-USDT',
      orderId: '42',
      accountId: '7',
      userId: '3',
      side: 'BUY',
      price: '30000',
      qty: '4',
      quoteQty: '120000',
      isMaker: false,
    },
  };

  it('upcasts to v2 with matchOrderId "0": a v1 leg did not name the other side\'s order', () => {
    const expected = { ...v1, v: 2, payload: { ...v1.payload, matchOrderId: '0' } };
    expect(ledgerCommandSchema.parse(v1)).toEqual(expected);
    expect(settlementCommandSchema.parse(v1)).toEqual(expected);
  });

  it("reads a v2 leg as it is, and refuses one without the other side's order", () => {
    const v2 = { ...v1, v: 2, payload: { ...v1.payload, matchOrderId: '41' } };
    expect(ledgerCommandSchema.parse(v2)).toEqual(v2);
    expect(settlementCommandSchema.safeParse({ ...v1, v: 2 }).success).toBe(false);
  });
});
