import { isKlineInterval, type KlineInterval } from './kline-intervals';

const DAY = 86_400_000;

/** How long stored candles of each interval are kept (ms); an interval not in the map is kept forever. */
export type KlineRetention = ReadonlyMap<KlineInterval, number>;

/**
 * `MARKET_DATA_KLINE_RETENTION_DAYS`: comma-separated `<interval>=<days>` (days may be fractional; 0 or an interval left out:
 * kept forever). A start rebuilds its 24 h ticker window from the 1m candles of the last day, so 1m
 * candles must be kept at least a day; a shorter value is refused here, at start, not found out
 * later as a ticker that lost part of its day after a restart.
 */
export function parseKlineRetention(text: string, variable = 'MARKET_DATA_KLINE_RETENTION_DAYS'): KlineRetention {
  const retention = new Map<KlineInterval, number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const match = /^([0-9]+[a-zA-Z])=([0-9]+(?:\.[0-9]+)?)$/.exec(part);
    if (!match) throw new Error(`${variable}: "${part}" is not <interval>=<days> (e.g. 1m=30)`);
    const [, interval, days] = match as unknown as [string, string, string];
    if (!isKlineInterval(interval)) throw new Error(`${variable}: "${interval}" is not a kline interval`);
    if (retention.has(interval)) throw new Error(`${variable}: ${interval} is named twice`);
    if (Number(days) > 0) retention.set(interval, Math.round(Number(days) * DAY));
  }
  const minute = retention.get('1m');
  if (minute !== undefined && minute < DAY)
    throw new Error(
      `${variable}: 1m candles must be kept at least 1 day (a start reads the last day of them for the 24 h ticker)`,
    );
  return retention;
}
