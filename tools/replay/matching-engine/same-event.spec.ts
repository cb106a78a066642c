import { sameEvent } from './same-event';

const v1Rested = JSON.stringify({
  type: 'OrderRested',
  v: 1,
  id: 'c1:1',
  ts: 5,
  payload: {
    symbol: 'BTCUSDT',
    commandId: 'c1',
    orderId: '101',
    clientOrderId: 'c-101',
    accountId: '11',
    userId: '1',
    side: 'SELL',
    price: '30000.1',
    restingQty: '0.5',
  },
});
const v2Rested = JSON.stringify({
  type: 'OrderRested',
  v: 2,
  id: 'c1:1',
  ts: 5,
  payload: { symbol: 'BTCUSDT', orderId: '101', restingQty: '0.5' },
});

describe('replay: a journaled order event against the one decided again', () => {
  it('holds byte for byte', () => {
    expect(sameEvent(v2Rested, v2Rested)).toBe(true);
  });

  it('holds for a v1 record an older engine wrote that upcasts to what the engine decides now', () => {
    expect(sameEvent(v1Rested, v2Rested)).toBe(true);
  });

  it("fails for other quantities, for other bytes of the same version, and past the journal's end", () => {
    expect(sameEvent(v1Rested.replace('"restingQty":"0.5"', '"restingQty":"0.4"'), v2Rested)).toBe(false);
    const reordered = JSON.stringify({
      type: 'OrderRested',
      v: 2,
      id: 'c1:1',
      ts: 5,
      payload: { orderId: '101', symbol: 'BTCUSDT', restingQty: '0.5' },
    });
    expect(sameEvent(reordered, v2Rested)).toBe(false);
    expect(sameEvent(undefined, v2Rested)).toBe(false);
  });
});
