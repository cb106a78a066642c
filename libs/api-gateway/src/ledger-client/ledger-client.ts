import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type LedgerCommand,
  type LedgerJournalEvent,
  parseLedgerEvent,
  Topics,
  toPartitionRecord,
  toRecord,
} from '@exchange/contracts';
import { type Consumer, decodeOnce, type EventLog, type IncomingBatch, type OutgoingRecord } from '@exchange/messaging';
import { ApiError, CONFIG, type Config, ErrorCode, EVENT_LOG, LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { Counter } from 'prom-client';
import { type Reply, PendingReplies } from '../replies/pending-replies';
import type { Gather } from '../replies/reply-waiters';
import { PipelineLag } from './pipeline-lag';

type Listener = (event: LedgerJournalEvent) => void;

/** How a command is sent: the correlation id is the REST request's, put on the command's record. */
export interface SendOptions {
  correlationId: string | undefined;
  timeoutMs?: number;
  partition?: number;
}

/**
 * Sends commands to the ledger and waits for the journal entry of their outcome, so a REST reply
 * says what really happened and a read right after it sees the effect. Every gateway replica reads
 * all of `ledger.events` in a group of its own (from the end) to find its replies
 * and to keep its caches (API keys, account flags) current.
 */
@Injectable()
export class LedgerClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly listeners: Listener[] = [];
  private consumer: Consumer | undefined;
  private readonly pipelineLag: PipelineLag;
  private readonly overloaded: Counter<'reason'>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
    @Inject(PendingReplies) private readonly replies: PendingReplies,
  ) {
    this.pipelineLag = new PipelineLag(log, config.MAX_PIPELINE_LAG, logger);
    this.overloaded = metrics.counter(
      'gateway_overload_rejections_total',
      'Commands refused with -1016 before queuing, by reason',
      ['reason'],
    );
    metrics.gauge('gateway_pending_requests', 'Commands waiting for their outcome from the ledger', [], (g) =>
      g.set(this.replies.size),
    );
    metrics.gauge(
      'gateway_pipeline_lag',
      'Records the ledger and the matching engine have not committed yet, as last polled',
      [],
      (g) => g.set(this.pipelineLag.current()),
    );
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
    this.replies.clear();
  }

  /**
   * Backpressure: a command that would wait behind a full pending table, or behind a pipeline
   * lagging past its bound, is refused at once (503 / -1016) rather than queued to time out.
   */
  private refuseWhenOverloaded(): void {
    // Asked first, whatever the pending table says: every command keeps the lag's polls going.
    const lagging = this.pipelineLag.exceeded();
    const reason = this.replies.isFull() ? 'pending' : lagging ? 'lag' : undefined;
    if (reason === undefined) return;
    this.overloaded.inc({ reason });
    throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
  }

  /** Every ledger event, as it arrives: for caches that must follow the ledger. */
  onEvent(listener: Listener): void {
    this.listeners.push(listener);
  }

  /**
   * Publishes the command and resolves once `gather` has found its outcome among the events the
   * command caused (routed by its id) and, with `alsoKeys`, the events about the order it names.
   */
  async request<V>(
    command: LedgerCommand,
    gather: Gather<Reply, V>,
    options: SendOptions & { alsoKeys?: readonly string[] },
  ): Promise<V> {
    this.refuseWhenOverloaded();
    const reply = this.replies.wait(command.id, gather, options);
    try {
      // The REST request's correlation id travels on the command, and from there on everything it causes.
      await this.log.publish([recordOf(command, options.correlationId, options.partition)]);
    } catch (error) {
      reply.cancel();
      this.logger.error({ err: error }, 'publishing a ledger command failed');
      throw new ApiError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The exchange cannot take commands right now; try again shortly.',
      );
    }
    return reply.promise;
  }

  /** Publishes the command and resolves with the ledger's own answer to it (CommandRejected included). */
  send(command: LedgerCommand, options: SendOptions): Promise<LedgerJournalEvent> {
    return this.request(
      command,
      (reply) => (reply.from === 'ledger' && reply.event.payload.commandId === command.id ? reply.event : undefined),
      options,
    );
  }

  /** Sends and turns a CommandRejected into the ApiError of its code. */
  async execute<T extends LedgerJournalEvent['type']>(
    command: LedgerCommand,
    expected: T,
    options: SendOptions,
  ): Promise<Extract<LedgerJournalEvent, { type: T }>> {
    const event = await this.send(command, options);
    if (event.type === 'CommandRejected') throw rejectedBy(event);
    if (event.type !== expected) throw new Error(`ledger answered ${command.type} with ${event.type}`);
    return event as Extract<LedgerJournalEvent, { type: T }>;
  }

  private onEvents(batch: IncomingBatch): void {
    for (const record of batch.records) {
      const event = decodeOnce(record, parseLedgerEvent);
      if (!event) {
        this.logger.error(
          { topic: record.topic, partition: record.partition, offset: record.offset },
          'not a ledger event: skipped',
        );
        continue;
      }
      for (const listener of this.listeners) listener(event);
      this.replies.deliver({ from: 'ledger', event });
    }
  }
}

/** The ApiError of the ledger's refusal, with the code it decided. */
export function rejectedBy(event: Extract<LedgerJournalEvent, { type: 'CommandRejected' }>): ApiError {
  return new ApiError(event.payload.code as never, event.payload.msg);
}

/** A user's command is keyed by its user; a command of no user (the operator's insurance seeding) goes to the partition it names. */
function recordOf(command: LedgerCommand, correlation: string | undefined, partition = 0): OutgoingRecord {
  if ('userId' in command.payload)
    return toRecord(Topics.ledgerCommands, command as Extract<LedgerCommand, { payload: { userId: string } }>, {
      correlation,
    });
  return toPartitionRecord(Topics.ledgerCommands, command, partition, command.type, { correlation });
}
