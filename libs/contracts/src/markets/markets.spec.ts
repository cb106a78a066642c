import { readFileSync } from 'node:fs';
import { Markets } from './markets';

const shipped = JSON.parse(readFileSync('config/markets.json', 'utf8')) as {
  assets: { asset: string; precision: number }[];
  symbols: Record<string, unknown>[];
};

function withQuotePrecision(precision: number) {
  return { ...shipped, assets: shipped.assets.map((a) => (a.asset === 'USDT' ? { ...a, precision } : a)) };
}

describe('Markets', () => {
  it('loads the shipped markets file', () => {
    expect(Markets.fromJson(shipped).symbol('BTCUSDT')?.quoteAsset).toBe('USDT');
  });

  // BTCUSDT trades 0.01 × 0.00001: a trade's quote amount has 7 decimals, which USDT must hold.
  it('refuses a symbol whose trade amounts would carry more decimals than its quote asset allows', () => {
    expect(() => Markets.fromJson(withQuotePrecision(6))).toThrow(
      /BTCUSDT tickSize × stepSize has 7 decimals, more than USDT's precision 6/,
    );
    expect(() => Markets.fromJson(withQuotePrecision(7))).not.toThrow();
  });

  it('refuses a symbol whose stepSize is finer than its base asset', () => {
    const tooFine = {
      ...shipped,
      symbols: shipped.symbols.map((s) =>
        s.symbol === 'ETHBTC' ? { ...s, stepSize: '0.000000001', tickSize: '1' } : s,
      ),
    };
    expect(() => Markets.fromJson(tooFine)).toThrow(/ETHBTC stepSize has more decimals than ETH's precision 8/);
  });
});
