import Decimal from 'decimal.js';
import { Markets } from '@exchange/contracts';
import type { NewContractOrder } from './contract-params';
import { resolveContractPrice } from './contract-prices';

const contract = Markets.fromFile('config/markets.json').contract('BTC-SWAP-USDT')!;
const order = (
  side: NewContractOrder['side'],
  priceType: NewContractOrder['priceType'],
  more: Partial<NewContractOrder> = {},
): NewContractOrder => ({
  contract,
  side,
  priceType,
  quantity: '1',
  timeInForce: 'GTC',
  clientOrderId: 'c',
  ...more,
});
const quotes = { bestBid: '29999.9', bestAsk: '30000.3', lastPrice: '30000.1' };

describe('resolveContractPrice: the limit price a priceType stands for', () => {
  it('takes INPUT as sent and OPPONENT, QUEUE and OVER from the book', () => {
    expect(resolveContractPrice(order('BUY_OPEN', 'INPUT', { price: new Decimal('123.4') }), quotes)).toBe('123.4');
    expect(resolveContractPrice(order('BUY_OPEN', 'OPPONENT'), quotes)).toBe('30000.3');
    expect(resolveContractPrice(order('SELL_CLOSE', 'OPPONENT'), quotes)).toBe('29999.9');
    expect(resolveContractPrice(order('BUY_CLOSE', 'QUEUE'), quotes)).toBe('29999.9');
    expect(resolveContractPrice(order('SELL_OPEN', 'QUEUE'), quotes)).toBe('30000.3');
    expect(resolveContractPrice(order('BUY_OPEN', 'OVER', { overPrice: new Decimal('10') }), quotes)).toBe('30010.3');
    expect(resolveContractPrice(order('SELL_OPEN', 'OVER', { overPrice: new Decimal('10') }), quotes)).toBe('29989.9');
  });

  it('puts MARKET 5% past the last price, to the tick, never past it', () => {
    // 30000.1 × 1.05 = 31500.105 → 31500.1 (down for a buy); × 0.95 = 28500.095 → 28500.1 (up for a sell).
    expect(resolveContractPrice(order('BUY_OPEN', 'MARKET'), quotes)).toBe('31500.1');
    expect(resolveContractPrice(order('SELL_OPEN', 'MARKET'), quotes)).toBe('28500.1');
  });

  it('rejects (-2010) what it has nothing to resolve against', () => {
    expect(() => resolveContractPrice(order('BUY_OPEN', 'OPPONENT'), {})).toThrow(
      expect.objectContaining({ code: -2010 }),
    );
    expect(() => resolveContractPrice(order('SELL_OPEN', 'MARKET'), { bestBid: '1' })).toThrow(
      expect.objectContaining({ code: -2010 }),
    );
  });
});
