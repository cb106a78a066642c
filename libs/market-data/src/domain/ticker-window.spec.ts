import { KlineSeries } from './kline-series';
import type { PublicTrade } from './recent-trades';
import { firstTimeInWindow, TICKER_BUCKET_MS, TICKER_WINDOW_MS, TickerWindow } from './ticker-window';

const DAY = TICKER_WINDOW_MS;
const trade = (tradeId: number, time: number, price: bigint, qty = 1n): PublicTrade => ({
  tradeId,
  time,
  price,
  qty,
  isBuyerMaker: false,
});

/** The window's statistics straight from the trades: those whose minute started after now − 24 h. */
function expected(trades: PublicTrade[], now: number, lastPrice: bigint) {
  const inside = trades.filter((t) => t.time >= firstTimeInWindow(now) && t.time <= now);
  if (inside.length === 0)
    return {
      openPrice: lastPrice,
      highPrice: lastPrice,
      lowPrice: lastPrice,
      lastPrice,
      volume: 0n,
      quoteVolume: 0n,
      trades: 0,
    };
  const prices = inside.map((t) => t.price);
  return {
    openPrice: inside[0]!.price,
    highPrice: prices.reduce((a, b) => (b > a ? b : a)),
    lowPrice: prices.reduce((a, b) => (b < a ? b : a)),
    lastPrice,
    volume: inside.reduce((s, t) => s + t.qty, 0n),
    quoteVolume: inside.reduce((s, t) => s + t.qty * t.price, 0n),
    trades: inside.length,
  };
}

describe('TickerWindow', () => {
  it('holds at most a day of minutes however many trades pass through it', () => {
    const window = new TickerWindow();
    let [id, largest] = [0, 0];
    // Three days at four trades a second: over a million trades.
    for (let time = 0; time < 3 * DAY; time += 250) {
      window.roll(time);
      window.add(trade(++id, time, 100n + BigInt(id % 7)));
      largest = Math.max(largest, window.size);
    }
    expect(id).toBeGreaterThan(1_000_000);
    expect(largest).toBe(DAY / TICKER_BUCKET_MS);
    expect(window.stats().trades).toBe((DAY / TICKER_BUCKET_MS) * 240);
  });

  it('agrees with the trades themselves as the window rolls, highs and lows included', () => {
    const window = new TickerWindow();
    const trades: PublicTrade[] = [];
    let seed = 7;
    const random = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let time = 1_000_000;
    for (let i = 1; i <= 1500; i++) {
      time += random(3 * TICKER_BUCKET_MS);
      window.roll(time);
      const t = trade(i, time, BigInt(1000 + random(200)), BigInt(1 + random(5)));
      trades.push(t);
      window.add(t);
      expect(window.stats()).toEqual(expected(trades, time, t.price));
    }
    const later = time + DAY - 30 * TICKER_BUCKET_MS;
    window.roll(later);
    expect(window.stats()).toEqual(expected(trades, later, trades[trades.length - 1]!.price));
    window.roll(time + DAY);
    expect(window.stats()).toMatchObject({ trades: 0, volume: 0n, openPrice: trades[trades.length - 1]!.price });
  });

  it('lets a minute go 24 h after it started: its last trade leaves up to 59,999 ms early', () => {
    const window = new TickerWindow();
    window.add(trade(1, 59_999, 5n));
    window.roll(DAY - 1);
    expect(window.stats().trades).toBe(1);
    window.roll(DAY);
    expect(window.stats().trades).toBe(0);
  });

  it('started from the 1m candles of the window, it rolls and answers as the window that folded every trade', () => {
    const folded = new TickerWindow();
    const minutes = new KlineSeries('1m', 10_000);
    let seed = 11;
    const random = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let time = 5_000_000;
    for (let i = 1; i <= 3000; i++) {
      time += random(TICKER_BUCKET_MS);
      const t = trade(i, time, BigInt(1000 + random(200)), BigInt(1 + random(5)));
      folded.roll(time);
      folded.add(t);
      minutes.add(t);
    }
    const started = new TickerWindow();
    for (const minute of minutes.query({ limit: 10_000 })!.filter((k) => k.openTime >= firstTimeInWindow(time)))
      started.addMinute(minute);
    expect(started.stats()).toEqual(folded.stats());
    const next = trade(3001, time + 1, 999n, 2n);
    for (const w of [folded, started]) w.add(next);
    for (const now of [time + DAY / 2, time + DAY - 5 * TICKER_BUCKET_MS, time + DAY]) {
      for (const w of [folded, started]) w.roll(now);
      expect(started.stats()).toEqual(folded.stats());
    }
  });

  it('refuses a minute that is not after the newest one', () => {
    const window = new TickerWindow();
    window.add(trade(1, 120_000, 10n));
    expect(() =>
      window.addMinute({
        openTime: 120_000,
        open: 10n,
        high: 10n,
        low: 10n,
        close: 10n,
        volume: 1n,
        quoteVolume: 10n,
        trades: 1,
      }),
    ).toThrow(/not after/);
  });
});
