import { MERGED_DEPTH_CUT_MS } from '@exchange/contracts';
/** Market data's rolling ticker window (libs/market-data ticker-window.ts): a trade leaves it 24 h after the start of its minute. */
export const TICKER_WINDOW_MS = 24 * 60 * 60 * 1000;
export const TICKER_BUCKET_MS = 60_000;

interface PartitionTicks {
  /** The time of the latest event other than a tick not yet followed by a tick past its merged-depth cut. */
  movedAt: number | undefined;
  /** When a minute of trades seen here leaves the 24 h window, rounded up to the tick step, ascending: at most a day's minutes. */
  expiries: number[];
  head: number;
  lastTick: number;
}

/**
 * Which order.events partitions need a ClockTicked now. Market data moves on a tick only when the
 * tick passes a 300 ms cut after a book change, or when a trade leaves its 24 h window; a tick
 * that does neither changes no answer and only grows a topic kept forever. So a partition ticks
 * after something moved in it, when a trade it saw expires, and otherwise once per `idleEveryMs`
 * (for trades this process did not see: those before its start, or decided by another replica),
 * which keeps an idle exchange's journal growing by a few KB an hour instead of MBs.
 */
export class TickSchedule {
  private readonly partitions = new Map<string, PartitionTicks>();

  constructor(
    private readonly stepMs: number,
    private readonly idleEveryMs: number,
  ) {}

  /** Events just emitted in the partition ticked under `key`. */
  noteEvents(key: string, events: readonly { type: string; ts: number }[]): void {
    const state = this.state(key);
    for (const event of events) {
      if (event.type === 'ClockTicked') continue;
      state.movedAt = Math.max(state.movedAt ?? event.ts, event.ts);
      if (event.type !== 'TradeExecuted') continue;
      const minute = Math.floor(event.ts / TICKER_BUCKET_MS) * TICKER_BUCKET_MS;
      const expiry = Math.ceil((minute + TICKER_WINDOW_MS) / this.stepMs) * this.stepMs;
      const last = state.expiries[state.expiries.length - 1];
      if (last === undefined || expiry > last || state.head === state.expiries.length) state.expiries.push(expiry);
    }
  }

  /** Whether `key`'s partition gets a tick at `now`; when it does, what it covers is consumed. */
  due(key: string, now: number): boolean {
    const state = this.state(key);
    let expired = false;
    while (state.head < state.expiries.length && state.expiries[state.head]! <= now) {
      state.head += 1;
      expired = true;
    }
    if (state.head > 1024 && state.head * 2 > state.expiries.length) {
      state.expiries = state.expiries.slice(state.head);
      state.head = 0;
    }
    // Only a tick in a later cut than the movement closes its cut: one in the same cut (the interval
    // firing right after the event) leaves the movement pending, or the cut would wait for the idle tick.
    const cutPassed =
      state.movedAt !== undefined &&
      Math.floor(now / MERGED_DEPTH_CUT_MS) > Math.floor(state.movedAt / MERGED_DEPTH_CUT_MS);
    if (!cutPassed && !expired && now - state.lastTick < this.idleEveryMs) return false;
    if (cutPassed) state.movedAt = undefined;
    state.lastTick = now;
    return true;
  }

  private state(key: string): PartitionTicks {
    let state = this.partitions.get(key);
    if (!state)
      this.partitions.set(
        key,
        (state = { movedAt: undefined, expiries: [], head: 0, lastTick: Number.NEGATIVE_INFINITY }),
      );
    return state;
  }
}
