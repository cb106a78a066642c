/**
 * The rebuild's progress line: events done of the total, events/s, what remains and the ETA.
 * On a terminal it redraws one line; otherwise (CI, a pipe) it prints a line every few seconds.
 */
export interface ProgressSnapshot {
  done: number;
  total: number;
  elapsedMs: number;
}

export function progressLine({ done, total, elapsedMs }: ProgressSnapshot, width = 24): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const remaining = Math.max(0, total - done);
  const eta = remaining === 0 ? '0s' : rate > 0 ? formatDuration((remaining / rate) * 1000) : '?';
  const n = (x: number): string => Math.round(x).toLocaleString('en-US');
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(1).padStart(5)}% ${n(done)}/${n(total)} events  ${n(rate)} events/s  ${n(remaining)} remaining  ETA ${eta}`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDrawn = 0;

  constructor(
    private readonly label: string,
    private total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  /** When the journal grew while we read it (a live service), the total follows. */
  advance(events: number): void {
    this.done += events;
    if (this.done > this.total) this.total = this.done;
    const now = Date.now();
    if (now - this.lastDrawn >= (this.out.isTTY ? 200 : 5000)) this.draw(now);
  }

  finish(): { events: number; seconds: number; eventsPerSecond: number } {
    const now = Date.now();
    this.total = this.done;
    this.draw(now);
    if (this.out.isTTY) this.out.write('\n');
    const seconds = (now - this.started) / 1000;
    return { events: this.done, seconds, eventsPerSecond: seconds > 0 ? this.done / seconds : 0 };
  }

  private draw(now: number): void {
    this.lastDrawn = now;
    const line = `${this.label} ${progressLine({ done: this.done, total: this.total, elapsedMs: now - this.started })}`;
    this.out.write(this.out.isTTY ? `\r${line}` : `${line}\n`);
  }
}
