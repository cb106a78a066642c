/**
 * The 13 kline intervals of the spec and where their buckets open, in UTC: fixed lengths from
 * the epoch for minutes to days, Monday 00:00 for weeks, the first of the calendar month for 1M.
 */
export const klineIntervals = [
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '1w',
  '1M',
] as const;
export type KlineInterval = (typeof klineIntervals)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday: the first Monday 00:00 UTC is 4 days later. */
const FIRST_MONDAY = 4 * DAY;

const fixedLength: Record<Exclude<KlineInterval, '1w' | '1M'>, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
};

export function isKlineInterval(text: string): text is KlineInterval {
  return (klineIntervals as readonly string[]).includes(text);
}

/** Open time of the bucket holding `time` (ms since the epoch). */
export function klineOpenTime(interval: KlineInterval, time: number): number {
  switch (interval) {
    case '1w':
      return FIRST_MONDAY + Math.floor((time - FIRST_MONDAY) / WEEK) * WEEK;
    case '1M': {
      const date = new Date(time);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    }
    default: {
      const length = fixedLength[interval];
      return Math.floor(time / length) * length;
    }
  }
}

/** The last millisecond of the bucket opening at `openTime`: the next bucket's open time − 1. */
export function klineCloseTime(interval: KlineInterval, openTime: number): number {
  switch (interval) {
    case '1w':
      return openTime + WEEK - 1;
    case '1M': {
      const date = new Date(openTime);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - 1;
    }
    default:
      return openTime + fixedLength[interval] - 1;
  }
}
