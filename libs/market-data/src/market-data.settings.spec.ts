import { configSchema } from '@exchange/platform';
import { marketDataSettings } from './market-data.settings';

const DAY = 86_400_000;
const settingsOf = (env: Record<string, string>) => marketDataSettings(configSchema.parse(env));

describe('market data settings', () => {
  it('by default keep 1m candles a month, 5m a quarter, up to 30m a year, up to 12h three years, 1d and longer forever', () => {
    const retention = settingsOf({}).klineRetention;
    expect(retention.get('1m')).toBe(30 * DAY);
    expect(retention.get('5m')).toBe(90 * DAY);
    expect(retention.get('30m')).toBe(365 * DAY);
    expect(retention.get('12h')).toBe(1095 * DAY);
    expect(['1d', '1w', '1M'].filter((i) => retention.has(i as never))).toEqual([]);
  });

  it('refuse, at start, 1m candles kept less than the day a start reads for its 24 h ticker', () => {
    expect(() => settingsOf({ MARKET_DATA_KLINE_RETENTION_DAYS: '1m=0.9,1h=30' })).toThrow(
      'MARKET_DATA_KLINE_RETENTION_DAYS: 1m candles must be kept at least 1 day',
    );
    expect(() => configSchema.parse({ MARKET_DATA_KLINE_RETENTION_DAYS: '1m=thirty' })).toThrow(
      'MARKET_DATA_KLINE_RETENTION_DAYS',
    );
  });
});
