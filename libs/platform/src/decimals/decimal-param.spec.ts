import Decimal from 'decimal.js';
import { ApiError } from '../errors/api-error';
import { formatDecimal, parseDecimalParam } from './decimal-param';

const code = (text: string, decimals = 8): number | undefined => {
  try {
    parseDecimalParam('amount', text, decimals);
    return undefined;
  } catch (error) {
    return (error as ApiError).code;
  }
};

describe('DECIMAL parameters', () => {
  it('accepts plain decimals and integers within the precision', () => {
    expect(parseDecimalParam('amount', '10', 8).toFixed()).toBe('10');
    expect(parseDecimalParam('amount', '0.00000001', 8).toFixed()).toBe('0.00000001');
  });

  it.each([
    ['-1'],
    ['+1'],
    ['1e3'],
    ['1E-3'],
    ['0x10'],
    ['1.'],
    ['.5'],
    ['1,5'],
    [' 1'],
    ['1e309'],
    ['Infinity'],
    ['NaN'],
    ['9'.repeat(400)],
  ])('refuses %p with -1100', (text) => {
    expect(code(text)).toBe(-1100);
  });

  it('refuses zero and more decimals than allowed with -1130, never rounding', () => {
    expect(code('0')).toBe(-1130);
    expect(code('0.000')).toBe(-1130);
    expect(code('1.123456789')).toBe(-1130);
    expect(code('1.1234567', 6)).toBe(-1130);
  });

  it('formats with a fixed number of places, cutting and never rounding up, text and decimal.js alike', () => {
    expect(formatDecimal('100.5', 8)).toBe('100.50000000');
    expect(formatDecimal('0', 2)).toBe('0.00');
    expect(formatDecimal('-30.25', 6)).toBe('-30.250000');
    expect(formatDecimal('1.239', 2)).toBe('1.23');
    expect(formatDecimal('-0.001', 2)).toBe('0.00');
    expect(formatDecimal('7', 0)).toBe('7');
    for (const v of ['123.456789123', '-5.5', '0.1', '99']) {
      for (const d of [0, 2, 6, 8]) expect(formatDecimal(v, d)).toBe(formatDecimal(new Decimal(v), d));
    }
  });
});
