import { SymbolUnits } from './symbol-units';

describe('SymbolUnits: exact conversion at the engine boundary', () => {
  const btc = new SymbolUnits('0.01', '0.00001');

  it('converts prices and quantities that are exact multiples, and nothing else', () => {
    expect(btc.priceToTicks('30000.10')).toBe(3_000_010);
    expect(btc.priceToTicks('30000.105')).toBeUndefined();
    expect(btc.qtyToLots('0.5')).toBe(50_000);
    expect(btc.qtyToLots('0.000015')).toBeUndefined();
    expect(new SymbolUnits('0.0003', '1').priceToTicks('0.0009')).toBe(3);
    expect(new SymbolUnits('0.0003', '1').priceToTicks('0.001')).toBeUndefined();
  });

  it('refuses what does not fit a safe integer instead of rounding it', () => {
    expect(btc.qtyToLots('90071992547.40993')).toBeUndefined();
    expect(btc.qtyToLots('90071992547.40991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('rounds a quote amount down to whole notional units and keeps the dust', () => {
    expect(btc.quoteToNotional('1500.01500001')).toEqual({ units: 15_000_150_000, dust: '0.00000001' });
    expect(btc.quoteToNotional('1500.015')).toEqual({ units: 15_000_150_000, dust: '0' });
    expect(btc.quoteToNotional('0.00000009')).toEqual({ units: 0, dust: '0.00000009' });
    expect(new SymbolUnits('0.0003', '0.7').quoteToNotional('1')).toEqual({ units: 4761, dust: '0.00019' });
  });

  it('writes amounts back as plain shortest decimals, products exact beyond 2^53', () => {
    expect(btc.ticksToPrice(3_000_010)).toBe('30000.1');
    expect(btc.lotsToQty(5)).toBe('0.00005');
    expect(btc.notionalToQuote(50_000)).toBe('0.005');
    expect(btc.tradeQuote(3_000_010, 50_000)).toBe('15000.05');
    // 999999999999 × 999999999 = 999999998999000000001 > 2^53, times 10^-7.
    expect(btc.tradeQuote(999_999_999_999, 999_999_999)).toBe('99999999899900.0000001');
    expect(new SymbolUnits('0.00000001', '0.00000001').lotsToQty(1)).toBe('0.00000001');
  });
});
