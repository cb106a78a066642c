import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import type { Logger } from '@exchange/platform';

/** The consumer groups a command passes through before its outcome comes back, with their input. */
export const PIPELINE_STAGES = [
  { group: 'ledger', topic: Topics.ledgerCommands.name },
  { group: 'matching-engine', topic: Topics.orderCommands.name },
] as const;

export const LAG_POLL_MS = 1000;

/**
 * How far behind the pipeline is: records on the ledger's and the engine's input topics that
 * their groups have not committed yet, polled once a second (not per request: it costs the
 * broker two admin calls). Past the bound, the gateway refuses new commands with -1016 at once:
 * a command queued behind that much work would time out anyway (-1007), after adding to it.
 * Commit markers of the engine's transactions count as a record each, a negligible excess.
 */
export class PipelineLag {
  private lag = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: EventLog,
    /** 0: no bound, nothing polled. */
    readonly limit: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.limit === 0) return;
    const poll = async (): Promise<void> => {
      try {
        await this.measure();
      } catch (error) {
        // Not knowing the lag must not stop trading: the last value stands until the next poll.
        this.logger.warn({ err: error }, 'api-gateway: pipeline lag not measured');
      }
      if (this.timer) this.timer = setTimeout(() => void poll(), LAG_POLL_MS).unref();
    };
    // The first poll waits too: the broker has enough to do while every service starts.
    this.timer = setTimeout(() => void poll(), LAG_POLL_MS).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  current(): number {
    return this.lag;
  }

  exceeded(): boolean {
    return this.limit > 0 && this.lag > this.limit;
  }

  async measure(): Promise<number> {
    let lag = 0;
    for (const { group, topic } of PIPELINE_STAGES) {
      const [ends, committed] = await Promise.all([
        this.log.endOffsets(topic),
        this.log.committedOffsets(group, topic),
      ]);
      ends.forEach((end, p) => (lag += Math.max(0, end - (committed[p] ?? 0))));
    }
    this.lag = lag;
    return lag;
  }
}
