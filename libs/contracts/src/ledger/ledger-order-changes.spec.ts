import { changedOrder, placedOrder } from './ledger-order-changes';
import type { OrderOutcomeApplied, OrderPlaced, TradeSettled } from './ledger-trading-events';

/** Readers fold these records and hash their JSON: the fields and their order are what a replay must reproduce. */
describe('ledger order records from v2 events', () => {
  const terms = {
    orderId: '11',
    clientOrderId: 'c-1',
    accountId: '1001',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '60000',
    origQty: '0.02',
    origQuoteOrderQty: '0',
    reservedAsset: 'USDT',
    reservedAmount: '1201.2',
    marketsVersion: 3,
  };
  const placed = { type: 'OrderPlaced', v: 2, id: 'e1', ts: 100, payload: { userId: '7', order: terms } };
  const record = placedOrder(placed as unknown as OrderPlaced);

  it('starts the record from the terms: nothing executed, NEW, the whole reservation left, in that key order', () => {
    expect(JSON.stringify(record)).toBe(
      JSON.stringify({
        ...terms,
        userId: '7',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        status: 'NEW',
        isWorking: false,
        time: 100,
        updateTime: 100,
        reservationLeft: '1201.2',
      }),
    );
  });

  it('moves only the fields a trade leg names, and leaves the record it started from as it was', () => {
    const before = JSON.stringify(record);
    const fill = {
      orderId: '11',
      status: 'PARTIALLY_FILLED',
      executedQty: '0.01',
      cummulativeQuoteQty: '600',
      reservationLeft: '600.6',
    };
    const changed = changedOrder(record, {
      type: 'TradeSettled',
      ts: 105,
      payload: { order: fill },
    } as unknown as TradeSettled);
    expect(JSON.stringify(changed)).toBe(JSON.stringify({ ...record, ...fill, updateTime: 105 }));
    expect(JSON.stringify(record)).toBe(before);
  });

  it('ends an order that reaches a final status: finalTime appended, nothing left reserved', () => {
    const outcome = { orderId: '11', status: 'CANCELED', isWorking: false };
    const ended = changedOrder(record, {
      type: 'OrderOutcomeApplied',
      ts: 110,
      payload: { order: outcome },
    } as unknown as OrderOutcomeApplied);
    expect(JSON.stringify(ended)).toBe(
      JSON.stringify({
        ...record,
        status: 'CANCELED',
        isWorking: false,
        updateTime: 110,
        reservationLeft: '0',
        finalTime: 110,
      }),
    );
  });
});
