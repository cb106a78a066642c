import { TICKER_WINDOW_MS, TickSchedule } from './tick-schedule';

const trade = (ts: number) => ({ type: 'TradeExecuted', ts });
const rested = (ts: number) => ({ type: 'OrderRested', ts });

/** The ticks over [from, to] in steps of 1 s. */
function ticks(schedule: TickSchedule, from: number, to: number): number[] {
  const out: number[] = [];
  for (let now = from; now <= to; now += 1000) if (schedule.due('BTCUSDT', now)) out.push(now);
  return out;
}

describe('tick schedule', () => {
  it('ticks once at start, then only once per idle period while nothing moves', () => {
    const schedule = new TickSchedule(1000, 60_000);
    expect(ticks(schedule, 0, 3_600_000)).toEqual(Array.from({ length: 61 }, (_, i) => i * 60_000));
  });

  it('ticks once after an event (a merged-depth cut may wait on it), then goes quiet again', () => {
    const schedule = new TickSchedule(1000, 60_000);
    schedule.due('BTCUSDT', 0);
    schedule.noteEvents('BTCUSDT', [rested(10_500)]);
    expect(ticks(schedule, 11_000, 59_000)).toEqual([11_000]);
  });

  it('keeps a movement pending through a tick in its own cut, and ticks once the cut has passed', () => {
    const schedule = new TickSchedule(1000, 60_000);
    schedule.due('BTCUSDT', 0);
    schedule.noteEvents('BTCUSDT', [rested(10_500)]);
    // The interval fired in the same 300 ms cut as the event: no tick, and the movement still waits.
    expect(schedule.due('BTCUSDT', 10_550)).toBe(false);
    expect(schedule.due('BTCUSDT', 10_700)).toBe(false);
    expect(schedule.due('BTCUSDT', 10_800)).toBe(true);
    expect(ticks(schedule, 11_800, 59_800)).toEqual([]);
  });

  it('ticks when a minute of trades it saw leaves the 24 h window (market data rolls by the minute), once per minute', () => {
    const schedule = new TickSchedule(1000, 10 * TICKER_WINDOW_MS);
    schedule.due('BTCUSDT', 0);
    schedule.noteEvents('BTCUSDT', [trade(5_200), trade(5_700), trade(65_700), trade(119_999)]);
    schedule.due('BTCUSDT', 120_000);
    expect(ticks(schedule, 121_000, TICKER_WINDOW_MS + 180_000)).toEqual([TICKER_WINDOW_MS, TICKER_WINDOW_MS + 60_000]);
  });

  it('ignores its own ticks as activity', () => {
    const schedule = new TickSchedule(1000, 60_000);
    schedule.due('BTCUSDT', 0);
    schedule.noteEvents('BTCUSDT', [{ type: 'ClockTicked', ts: 500 }]);
    expect(ticks(schedule, 1000, 59_000)).toEqual([]);
  });
});
