import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HeaderNames, type LedgerInput, type LedgerJournalEvent, Topics } from '@exchange/contracts';
import type { Consumer, EventLog, IncomingBatch } from '@exchange/messaging';
import { ApiError, CONFIG, type Config, currentCorrelationId, ErrorCode, EVENT_LOG, LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { Counter } from 'prom-client';
import { PipelineLag } from './pipeline-lag';

type Listener = (event: LedgerJournalEvent) => void;

interface Pending {
  resolve: (event: LedgerJournalEvent) => void;
  timer: NodeJS.Timeout;
}

interface OrderWatch {
  events: LedgerJournalEvent[];
  until: (event: LedgerJournalEvent) => boolean;
  resolve: (events: LedgerJournalEvent[]) => void;
  timer: NodeJS.Timeout;
}

export const REPLY_TIMEOUT_MS = 10_000;

/**
 * Sends commands to the ledger and waits for the journal entry of their outcome, so a REST reply
 * says what really happened and a read right after it sees the effect. Every gateway replica reads
 * all of `ledger.events` in a group of its own (from the end) to find its replies
 * and to keep its caches (API keys, account flags) current.
 */
@Injectable()
export class LedgerClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners: Listener[] = [];
  private readonly orderWatches = new Map<string, OrderWatch>();
  private consumer: Consumer | undefined;
  private readonly pipelineLag: PipelineLag;
  private readonly overloaded: Counter<'reason'>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.pipelineLag = new PipelineLag(log, config.MAX_PIPELINE_LAG, logger);
    this.overloaded = metrics.counter('gateway_overload_rejections_total', 'Commands refused with -1016 before queuing, by reason', ['reason']);
    metrics.gauge('gateway_pending_requests', 'Commands waiting for their outcome from the ledger', [], (g) => g.set(this.pending.size));
    metrics.gauge('gateway_pipeline_lag', 'Records the ledger and the matching engine have not committed yet, as last polled', [], (g) => g.set(this.pipelineLag.current()));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.pipelineLag.start();
    this.consumer = await this.log.consume({
      // One group per process: every replica must see every reply, even two that share an INSTANCE_ID by mistake.
      groupId: `api-gateway.replies.${this.config.INSTANCE_ID}.${hostname()}.${process.pid}`,
      topics: [Topics.ledgerEvents.name],
      fromBeginning: false,
      ephemeral: true,
      eachBatch: async (batch) => this.onEvents(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.pipelineLag.stop();
    await this.consumer?.stop();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    for (const w of this.orderWatches.values()) clearTimeout(w.timer);
  }

  /**
   * Backpressure: a command that would wait behind a full pending table, or behind a pipeline
   * lagging past its bound, is refused at once (503 / -1016) rather than queued to time out.
   */
  private refuseWhenOverloaded(): void {
    const reason = this.pending.size >= this.config.MAX_PENDING_REQUESTS ? 'pending' : this.pipelineLag.exceeded() ? 'lag' : undefined;
    if (reason === undefined) return;
    this.overloaded.inc({ reason });
    throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
  }

  /** Every ledger event, as it arrives: for caches that must follow the ledger. */
  onEvent(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Publishes the command and resolves with the first event it caused (CommandRejected included). */
  async send(command: LedgerInput, timeoutMs = REPLY_TIMEOUT_MS): Promise<LedgerJournalEvent> {
    this.refuseWhenOverloaded();
    const reply = new Promise<LedgerJournalEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(command.id);
        reject(new ApiError(ErrorCode.TIMEOUT, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'));
      }, timeoutMs);
      this.pending.set(command.id, { resolve, timer });
    });
    try {
      await this.log.publish([
        {
          topic: Topics.ledgerCommands.name,
          key: command.payload.userId,
          value: JSON.stringify(command),
          headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type, ...correlationHeader() },
        },
      ]);
    } catch (error) {
      clearTimeout(this.pending.get(command.id)?.timer);
      this.pending.delete(command.id);
      this.logger.error({ err: error }, 'publishing a ledger command failed');
      throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange cannot take commands right now; try again shortly.');
    }
    return reply;
  }

  /**
   * Collects the ledger's events about one order until `until` holds (for example the engine's
   * outcome reaching the ledger), so a REST answer can report what really happened. Register it
   * before sending the command; `cancel` drops it.
   */
  watchOrder(orderId: string, until: (event: LedgerJournalEvent) => boolean, timeoutMs = REPLY_TIMEOUT_MS): { events: Promise<LedgerJournalEvent[]>; cancel: () => void } {
    let cancel: () => void = () => undefined;
    const events = new Promise<LedgerJournalEvent[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.orderWatches.delete(orderId);
        reject(new ApiError(ErrorCode.TIMEOUT, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'));
      }, timeoutMs);
      this.orderWatches.set(orderId, { events: [], until, resolve, timer });
      cancel = () => {
        clearTimeout(timer);
        this.orderWatches.delete(orderId);
      };
    });
    events.catch(() => undefined);
    return { events, cancel };
  }

  /** Sends and turns a CommandRejected into the ApiError of its code. */
  async execute<T extends LedgerJournalEvent['type']>(command: LedgerInput, expected: T): Promise<Extract<LedgerJournalEvent, { type: T }>> {
    const event = await this.send(command);
    if (event.type === 'CommandRejected') throw new ApiError(event.payload.code as never, event.payload.msg);
    if (event.type !== expected) throw new Error(`ledger answered ${command.type} with ${event.type}`);
    return event as Extract<LedgerJournalEvent, { type: T }>;
  }

  private feedOrderWatch(event: LedgerJournalEvent): void {
    const orderId = 'order' in event.payload ? event.payload.order.orderId : undefined;
    const watch = orderId === undefined ? undefined : this.orderWatches.get(orderId);
    if (!watch || orderId === undefined) return;
    watch.events.push(event);
    if (!watch.until(event)) return;
    clearTimeout(watch.timer);
    this.orderWatches.delete(orderId);
    watch.resolve(watch.events);
  }

  private onEvents(batch: IncomingBatch): void {
    for (const record of batch.records) {
      let event: LedgerJournalEvent;
      try {
        event = JSON.parse(record.value) as LedgerJournalEvent;
      } catch {
        continue;
      }
      for (const listener of this.listeners) listener(event);
      this.feedOrderWatch(event);
      const pending = this.pending.get(event.payload?.commandId);
      if (pending) {
        clearTimeout(pending.timer);
        this.pending.delete(event.payload.commandId);
        pending.resolve(event);
      }
    }
  }
}

/** The REST request's correlation id travels on the command, and from there on everything it causes. */
function correlationHeader(): Record<string, string> {
  const id = currentCorrelationId();
  return id === undefined ? {} : { [HeaderNames.correlationId]: id };
}
