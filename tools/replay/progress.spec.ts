import { formatDuration, progressLine } from './progress';

describe('replay progress line', () => {
  it('shows the share done, the rate, what remains and the ETA', () => {
    expect(progressLine({ done: 250_000, total: 1_000_000, elapsedMs: 5000 }, 8)).toBe(
      '[##------]  25.0% 250,000/1,000,000 events  50,000 events/s  750,000 remaining  ETA 15s',
    );
  });

  it('knows no ETA before the first event and is full at the end', () => {
    expect(progressLine({ done: 0, total: 10, elapsedMs: 0 }, 4)).toBe(
      '[----]   0.0% 0/10 events  0 events/s  10 remaining  ETA ?',
    );
    expect(progressLine({ done: 10, total: 10, elapsedMs: 1000 }, 4)).toBe(
      '[####] 100.0% 10/10 events  10 events/s  0 remaining  ETA 0s',
    );
  });

  it('formats long durations in minutes and hours', () => {
    expect([formatDuration(59_000), formatDuration(61_000), formatDuration(3_720_000)]).toEqual([
      '59s',
      '1m01s',
      '1h02m',
    ]);
  });
});
