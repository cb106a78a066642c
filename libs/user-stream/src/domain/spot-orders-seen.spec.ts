import type { LedgerJournalEvent, LedgerOrderRecord } from '@exchange/contracts';
import { SpotOrderMemory } from './spot-orders-seen';

const terms = {
  clientOrderId: 'c1',
  accountId: '100',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '60000',
  origQty: '1',
  origQuoteOrderQty: '0',
  reservedAsset: 'USDT',
  reservedAmount: '60000',
  marketsVersion: 1,
} as const;
const record = (orderId: string, over: Partial<LedgerOrderRecord> = {}): LedgerOrderRecord => ({
  ...terms,
  orderId,
  userId: '7',
  executedQty: '0',
  cummulativeQuoteQty: '0',
  status: 'NEW',
  isWorking: true,
  time: 1000,
  updateTime: 1000,
  reservationLeft: '60000',
  ...over,
});
const event = (type: string, seq: number, payload: Record<string, unknown>): LedgerJournalEvent =>
  ({
    type,
    v: 2,
    id: `c${seq}:0`,
    ts: 5000 + seq,
    payload: { userId: '7', seq, commandId: `c${seq}`, balances: [], ...payload },
  }) as unknown as LedgerJournalEvent;
const fill = (orderId: string, seq: number, executedQty: string, status = 'PARTIALLY_FILLED') =>
  event('TradeSettled', seq, {
    trade: {},
    feeAccountId: '1',
    firstFlowId: '1',
    order: { orderId, status, executedQty, cummulativeQuoteQty: '0', reservationLeft: '0' },
  });

describe("the user stream's open spot orders", () => {
  it("renders a fill with the placement's terms and forgets the order when it ends", () => {
    const memory = new SpotOrderMemory();
    memory.observe(event('OrderPlaced', 1, { order: { ...terms, orderId: '5' } }));
    expect(memory.observe(fill('5', 2, '0.4'))).toMatchObject({
      orderId: '5',
      clientOrderId: 'c1',
      price: '60000',
      executedQty: '0.4',
      status: 'PARTIALLY_FILLED',
      updateTime: 5002,
    });
    expect(memory.observe(fill('5', 2, '0.4'))).toBeUndefined();
    expect(
      memory.observe(
        event('OrderOutcomeApplied', 3, {
          outcome: 'CANCELED',
          order: { orderId: '5', status: 'CANCELED', isWorking: false },
        }),
      ),
    ).toMatchObject({ status: 'CANCELED', executedQty: '0.4', finalTime: 5003 });
    expect(memory.size).toBe(0);
  });

  it("takes seeded orders even after events of their user, with the next event's absolute fields, and does not bring back one seen to end", () => {
    const memory = new SpotOrderMemory();
    expect(memory.observe(fill('6', 4, '0.2'))).toBeUndefined();
    expect(
      memory.observe(
        event('OrderOutcomeApplied', 5, {
          outcome: 'FILLED',
          order: { orderId: '8', status: 'FILLED', isWorking: false },
        }),
      ),
    ).toBeUndefined();
    memory.seed('7', 3, [record('6'), record('8')]);
    expect(memory.size).toBe(1);
    expect(memory.observe(fill('6', 6, '0.5'))).toMatchObject({
      orderId: '6',
      clientOrderId: 'c1',
      executedQty: '0.5',
    });
  });
});
