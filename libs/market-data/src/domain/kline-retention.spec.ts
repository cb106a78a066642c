import { parseKlineRetention } from './kline-retention';

const DAY = 86_400_000;

describe('kline retention (MARKET_DATA_KLINE_RETENTION_DAYS)', () => {
  it('keeps each named interval its days, and the intervals left out or at 0 forever', () => {
    const retention = parseKlineRetention('1m=30, 1h=1095,1d=0,5m=1.5');
    expect([...retention]).toEqual([
      ['1m', 30 * DAY],
      ['1h', 1095 * DAY],
      ['5m', 1.5 * DAY],
    ]);
    expect(parseKlineRetention('').size).toBe(0);
  });

  it('refuses 1m candles kept less than the day a start reads for its 24 h ticker, with the variable named', () => {
    expect(() => parseKlineRetention('1m=0.5')).toThrow(
      'MARKET_DATA_KLINE_RETENTION_DAYS: 1m candles must be kept at least 1 day',
    );
  });

  it('refuses unknown intervals, repeats and other shapes', () => {
    expect(() => parseKlineRetention('3m=10')).toThrow('"3m" is not a kline interval');
    expect(() => parseKlineRetention('1m=30,1m=40')).toThrow('1m is named twice');
    expect(() => parseKlineRetention('1m:30')).toThrow('is not <interval>=<days>');
  });
});
