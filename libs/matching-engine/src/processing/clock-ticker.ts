import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { type ClockTicked, HeaderNames, type Markets, Topics } from '@exchange/contracts';
import { type EventLog, type OutgoingRecord, partitionForKey } from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, EVENT_LOG, LOGGER, type Logger, MARKETS } from '@exchange/platform';
import { TickSchedule } from './tick-schedule';

/**
 * Publishes a ClockTicked to an order.events partition, checked every ENGINE_CLOCK_TICK_MS, when
 * market data needs one (see TickSchedule: after activity, when a trade leaves the 24 h window, and
 * once per ENGINE_CLOCK_IDLE_TICK_MS otherwise), so read models anchored at event time (24 h
 * tickers, merged-depth cuts) roll when no order moves, without journaling idle seconds. It runs
 * beside the book fold, never inside it: ticks change no book and are not decided from commands,
 * so the engine's determinism (same commands, same events) is untouched. A tick is keyed by the
 * first symbol of its partition and moves the time of every symbol there. Several engine replicas
 * each tick; consumers clamp event time to be non-decreasing, so extra ticks change nothing.
 *
 * Hosted without the app's configuration (the engine's own test harness), it does not tick.
 */
@Injectable()
export class ClockTicker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private schedule: TickSchedule | undefined;
  /** Each symbol's tick key: the symbol whose tick lands in its partition. */
  private readonly keyOf = new Map<string, string>();
  /** Tick ids stay unique across restarts and replicas, also under a clock that stands still (tests). */
  private readonly nonce = randomBytes(4).toString('hex');

  constructor(
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(CONFIG) private readonly config?: Config,
    @Optional() @Inject(CLOCK) private readonly clock?: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = this.config?.ENGINE_CLOCK_TICK_MS ?? 0;
    if (every <= 0 || !this.clock) return;
    const partitions = await this.log.partitionCount(Topics.orderEvents.name);
    const keys = tickKeys(
      this.markets.symbols.map((s) => s.symbol),
      partitions,
    );
    // A contract's activity schedules its partition's tick too (when a spot symbol shares it).
    for (const { symbol } of this.markets.books) {
      const key = keys.find((k) => partitionForKey(k, partitions) === partitionForKey(symbol, partitions));
      if (key !== undefined) this.keyOf.set(symbol, key);
    }
    this.schedule = new TickSchedule(every, this.config?.ENGINE_CLOCK_IDLE_TICK_MS ?? 60_000);
    this.timer = setInterval(() => void this.tick(keys), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** What the engine just emitted for `symbol`: activity and trades the schedule ticks for. */
  noteEvents(symbol: string, events: readonly { type: string; ts: number }[]): void {
    const key = this.keyOf.get(symbol);
    if (key !== undefined) this.schedule?.noteEvents(key, events);
  }

  private async tick(keys: readonly string[]): Promise<void> {
    const ts = this.clock!.now();
    const due = keys.filter((key) => this.schedule!.due(key, ts));
    if (due.length === 0) return;
    this.sequence += 1;
    const records: OutgoingRecord[] = due.map((symbol) => {
      const tick: ClockTicked = {
        type: 'ClockTicked',
        v: 1,
        id: `tick:${symbol}:${ts}:${this.nonce}:${this.sequence}`,
        ts,
        payload: { symbol },
      };
      return {
        topic: Topics.orderEvents.name,
        key: symbol,
        value: JSON.stringify(tick),
        headers: { [HeaderNames.messageId]: tick.id },
      };
    });
    try {
      await this.log.publish(records);
    } catch (error) {
      // A lost tick only delays a roll until the next one.
      this.logger.warn({ err: error }, 'matching-engine: clock tick not published');
    }
  }
}

/** One symbol per partition that holds any: the key that lands a tick there. */
export function tickKeys(symbols: readonly string[], partitions: number): string[] {
  const byPartition = new Map<number, string>();
  for (const symbol of [...symbols].sort()) {
    const partition = partitionForKey(symbol, partitions);
    if (!byPartition.has(partition)) byPartition.set(partition, symbol);
  }
  return [...byPartition.values()];
}
