import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HeaderNames, type LedgerCommand, type LedgerEvent, type LedgerJournalEvent, Topics } from '@exchange/contracts';
import type { Consumer, EventLog, IncomingBatch } from '@exchange/messaging';
import { ApiError, CONFIG, type Config, ErrorCode, EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';

type Listener = (event: LedgerJournalEvent) => void;

interface Pending {
  resolve: (event: LedgerEvent) => void;
  timer: NodeJS.Timeout;
}

export const REPLY_TIMEOUT_MS = 10_000;
export const MAX_PENDING = 10_000;

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
  private consumer: Consumer | undefined;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = await this.log.consume({
      // One group per process: every replica must see every reply, even two that share an INSTANCE_ID by mistake.
      groupId: `api-gateway.replies.${this.config.INSTANCE_ID}.${hostname()}.${process.pid}`,
      topics: [Topics.ledgerEvents.name],
      fromBeginning: false,
      eachBatch: async (batch) => this.onEvents(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
    for (const p of this.pending.values()) clearTimeout(p.timer);
  }

  /** Every ledger event, as it arrives: for caches that must follow the ledger. */
  onEvent(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Publishes the command and resolves with the first event it caused (CommandRejected included). */
  async send(command: LedgerCommand, timeoutMs = REPLY_TIMEOUT_MS): Promise<LedgerEvent> {
    if (this.pending.size >= MAX_PENDING) throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
    const reply = new Promise<LedgerEvent>((resolve, reject) => {
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
          headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type },
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

  /** Sends and turns a CommandRejected into the ApiError of its code. */
  async execute<T extends LedgerEvent['type']>(command: LedgerCommand, expected: T): Promise<Extract<LedgerEvent, { type: T }>> {
    const event = await this.send(command);
    if (event.type === 'CommandRejected') throw new ApiError(event.payload.code as never, event.payload.msg);
    if (event.type !== expected) throw new Error(`ledger answered ${command.type} with ${event.type}`);
    return event as Extract<LedgerEvent, { type: T }>;
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
      const pending = this.pending.get(event.payload?.commandId);
      if (pending) {
        clearTimeout(pending.timer);
        this.pending.delete(event.payload.commandId);
        pending.resolve(event as LedgerEvent);
      }
    }
  }
}
