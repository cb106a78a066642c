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
 * their groups have not committed yet, polled at most once a second (not per request: it costs
 * the broker a request per topic and per group). Past the bound, the gateway refuses new
 * commands with -1016 at once: a command queued behind that much work would time out anyway
 * (-1007), after adding to it. Commit markers of the engine's transactions count as a record
 * each, a negligible excess.
 *
 * Polled only while it is used: a command asked since the last poll, or a lag above 0 (a backlog
 * draining, followed down to 0 for the gauge and to lift a refusal; a caught-up group commits past
 * the transaction markers, so a quiet pipeline reaches 0). An idle gateway asks the broker
 * nothing; the first command after a pause is judged by the last value, as every command is
 * between two polls, and starts the next poll at once.
 */
export class PipelineLag {
  private lag = 0;
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** A command asked since the last poll began. */
  private asked = false;
  private lastPollAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly log: EventLog,
    /** 0: no bound, nothing polled. */
    readonly limit: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.started = this.limit > 0;
  }

  stop(): void {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  current(): number {
    return this.lag;
  }

  /** Asked for each command: what keeps the polls going while commands come. */
  exceeded(): boolean {
    if (this.limit === 0) return false;
    this.asked = true;
    this.schedule();
    return this.lag > this.limit;
  }

  async measure(): Promise<number> {
    let lag = 0;
    const stages = await Promise.all(
      PIPELINE_STAGES.map(({ group, topic }) =>
        Promise.all([this.log.endOffsets(topic), this.log.committedOffsets(group, topic)]),
      ),
    );
    for (const [ends, committed] of stages) ends.forEach((end, p) => (lag += Math.max(0, end - (committed[p] ?? 0))));
    this.lag = lag;
    return lag;
  }

  private schedule(): void {
    if (!this.started || this.timer || this.polling) return;
    const wait = Math.max(0, this.lastPollAt + LAG_POLL_MS - Date.now());
    this.timer = setTimeout(() => void this.poll(), wait).unref();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    this.polling = true;
    this.asked = false;
    this.lastPollAt = Date.now();
    try {
      await this.measure();
    } catch (error) {
      // Not knowing the lag must not stop trading: the last value stands until the next poll.
      this.logger.warn({ err: error }, 'api-gateway: pipeline lag not measured');
    } finally {
      this.polling = false;
    }
    if (this.asked || this.lag > 0) this.schedule();
  }
}
