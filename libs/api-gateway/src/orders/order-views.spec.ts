import type { LedgerOrderRecord, LedgerTradeRecord } from '@exchange/contracts';
import { newOrderView } from './order-views';

const order = {
  orderId: '42',
  accountId: '1001',
  userId: '100',
  clientOrderId: 'c42',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'IOC',
  price: '1000',
  origQty: '0.01',
  executedQty: '0.004',
  cummulativeQuoteQty: '4',
  status: 'CANCELED',
  time: 1_700_000_000_000,
  updateTime: 1_700_000_000_005,
  isWorking: false,
} as LedgerOrderRecord;
const fill = {
  tradeId: '7',
  orderId: '42',
  accountId: '1001',
  symbol: 'BTCUSDT',
  price: '1000',
  qty: '0.004',
  quoteQty: '4',
  commission: '0.000004',
  commissionAsset: 'BTC',
  time: 1_700_000_000_004,
  isBuyer: true,
  isMaker: false,
} as LedgerTradeRecord;

describe('newOrderView: the new-order answer as clients read it', () => {
  it('answers ACK with the order ids and the transaction time only', () => {
    expect(JSON.stringify(newOrderView(order, 'ACK', [fill]))).toBe(
      '{"symbol":"BTCUSDT","orderId":"42","clientOrderId":"c42","transactTime":"1700000000005"}',
    );
  });

  it('answers RESULT with the spec fields in the spec order, and FULL with the fills after them', () => {
    const result =
      '{"symbol":"BTCUSDT","orderId":"42","clientOrderId":"c42","transactTime":"1700000000005","price":"1000",' +
      '"origQty":"0.01","executedQty":"0.004","cummulativeQuoteQty":"4","status":"CANCELED","timeInForce":"IOC",' +
      '"type":"LIMIT","side":"BUY"';
    expect(JSON.stringify(newOrderView(order, 'RESULT', [fill]))).toBe(`${result}}`);
    expect(JSON.stringify(newOrderView(order, 'FULL', [fill]))).toBe(
      `${result},"fills":[{"price":"1000","qty":"0.004","commission":"0.000004","commissionAsset":"BTC","tradeId":"7"}]}`,
    );
  });

  it('shows "0" for the amounts an order record leaves empty (a MARKET order has no price)', () => {
    const market = { ...order, price: '', type: 'MARKET' } as LedgerOrderRecord;
    expect(newOrderView(market, 'RESULT', [])).toMatchObject({ price: '0', type: 'MARKET' });
  });
});
