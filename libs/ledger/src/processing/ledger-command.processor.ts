import { Controller, Inject } from '@nestjs/common';
import { HeaderNames, type LedgerInput, ledgerInputSchema, type LedgerJournalEvent, type Markets, type OrderCommand, type TrackWithdrawal, Topics } from '@exchange/contracts';
import { ConsumeBatches, type IncomingBatch, type IncomingRecord, type OutgoingRecord } from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, LOGGER, type Logger, MARKETS, Metrics } from '@exchange/platform';
import type { Counter, Histogram } from 'prom-client';
import { decide } from '../domain/decide';
import { feeAccountIdOf, flowIdOf } from '../domain/ledger-ids';
import { orderCommandsFor } from '../domain/engine-commands';
import { walletCommandsFor } from '../domain/wallet-commands';
import { evolve, initialLedgerState } from '../domain/ledger-state';
import { type LoadedPartition, LedgerStore } from '../persistence/ledger-store';
import { OutboxRelay } from './outbox-relay';

export const LEDGER_GROUP = 'ledger';

/**
 * The ledger's input: each batch of `ledger.commands` of one partition is decided in order,
 * folded into the hot state, and committed with its events and checkpoint in one PostgreSQL
 * transaction. Records below the checkpoint were applied before a crash and are skipped.
 */
@Controller()
export class LedgerCommandProcessor {
  private readonly state: ReturnType<typeof initialLedgerState>;
  private readonly partitions = new Map<number, LoadedPartition>();
  private readonly commitSeconds: Histogram<string>;
  private readonly batchSize: Histogram<string>;
  private readonly decided: Counter<'type' | 'outcome'>;

  constructor(
    private readonly store: LedgerStore,
    private readonly relay: OutboxRelay,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
    @Inject(CONFIG) config: Config,
  ) {
    this.state = initialLedgerState(config.RETRY_WINDOW_MS);
    this.commitSeconds = metrics.histogram('ledger_batch_commit_seconds', 'One PostgreSQL transaction per consumed batch', [], [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]);
    this.batchSize = metrics.histogram('ledger_batch_commands', 'Commands per committed batch', [], [1, 2, 5, 10, 50, 100, 500, 1000, 5000]);
    this.decided = metrics.counter('ledger_commands_total', 'Commands decided, by type and outcome', ['type', 'outcome']);
  }

  @ConsumeBatches({ topic: Topics.ledgerCommands.name, groupId: LEDGER_GROUP, fromBeginning: true })
  async onCommands(batch: IncomingBatch): Promise<void> {
    const loaded = this.partitions.get(batch.partition) ?? (await this.loadPartition(batch.partition));
    const fresh = batch.records.filter((r) => r.offset >= loaded.nextOffset);
    if (fresh.length === 0) return;
    const events: LedgerJournalEvent[] = [];
    const processed: { commandId: string; offset: number }[] = [];
    const correlationOf = new Map<string, string>();
    const decidedAt = this.clock.now();
    for (const record of fresh) {
      const command = this.parse(record);
      if (!command || loaded.processedCommandIds.has(command.id)) continue;
      const decided = decide(command, this.state, {
        now: this.clock.now(),
        flowId: (k) => flowIdOf(record.offset, batch.partition, k),
        asset: (name) => this.markets.asset(name),
        symbol: (name) => this.markets.symbol(name),
        feeAccountId: feeAccountIdOf(batch.partition),
      });
      for (const event of decided) evolve(this.state, event);
      const correlationId = record.headers[HeaderNames.correlationId];
      if (correlationId !== undefined) for (const event of decided) correlationOf.set(event.id, correlationId);
      this.logger.debug({ correlationId, commandId: command.id, type: command.type, events: decided.map((e) => e.type) }, 'ledger: decided');
      events.push(...decided);
      this.decided.inc({ type: command.type, outcome: decided[0]?.type === 'CommandRejected' ? 'rejected' : 'applied' });
      processed.push({ commandId: command.id, offset: record.offset });
      loaded.processedCommandIds.add(command.id, decidedAt);
    }
    const forgetProcessedBefore = decidedAt - this.state.clientIdWindowMs;
    loaded.processedCommandIds.expire(forgetProcessedBefore);
    const stopTimer = this.commitSeconds.startTimer();
    try {
      await this.store.commitBatch({
        topic: batch.topic,
        partition: batch.partition,
        expectedOffset: loaded.nextOffset,
        nextOffset: batch.nextOffset,
        events,
        processed,
        decidedAt,
        forgetProcessedBefore,
        // The engine's commands leave with the events that decided them: same transaction.
        outbox: [
          ...events.map((e) => toOutgoing(e, correlationOf.get(e.id))),
          ...orderCommandsFor(events).map((c) => toEngineCommand(c, correlationOf.get(c.id))),
          ...walletCommandsFor(events).map((c) => toWalletCommand(c, correlationOf.get(c.id))),
        ],
      });
    } catch (error) {
      // The hot state ran ahead of what was committed: forget the partition, reload it on retry.
      this.partitions.delete(batch.partition);
      throw error;
    }
    stopTimer();
    this.batchSize.observe(processed.length);
    loaded.nextOffset = batch.nextOffset;
    this.relay.wake();
  }

  private async loadPartition(partition: number): Promise<LoadedPartition> {
    const loaded = await this.store.loadPartition(this.state, Topics.ledgerCommands.name, partition, this.clock.now(), feeAccountIdOf(partition));
    this.partitions.set(partition, loaded);
    this.logger.info({ partition, nextOffset: loaded.nextOffset }, 'ledger partition loaded');
    return loaded;
  }

  private parse(record: IncomingRecord): LedgerInput | undefined {
    let json: unknown;
    try {
      json = JSON.parse(record.value);
    } catch {
      json = undefined;
    }
    const parsed = ledgerInputSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    this.logger.warn({ partition: record.partition, offset: record.offset, issues: parsed.error?.issues.slice(0, 3) }, 'ledger: skipped a record that is not a ledger command');
    return undefined;
  }
}

/** An engine command's id is the id of the event that asked for it (see engine-commands.ts). */
function toEngineCommand(command: OrderCommand, correlationId: string | undefined): OutgoingRecord {
  return {
    topic: Topics.orderCommands.name,
    key: command.payload.symbol,
    value: JSON.stringify(command),
    headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type, ...correlation(correlationId) },
  };
}

function toWalletCommand(command: TrackWithdrawal, correlationId: string | undefined): OutgoingRecord {
  return {
    topic: Topics.walletCommands.name,
    key: command.payload.userId,
    value: JSON.stringify(command),
    headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type, ...correlation(correlationId) },
  };
}

function toOutgoing(event: LedgerJournalEvent, correlationId: string | undefined): OutgoingRecord {
  return {
    topic: Topics.ledgerEvents.name,
    key: event.payload.userId,
    value: JSON.stringify(event),
    headers: { [HeaderNames.messageId]: event.id, [HeaderNames.messageType]: event.type, [HeaderNames.causationId]: event.payload.commandId, ...correlation(correlationId) },
  };
}

function correlation(correlationId: string | undefined): Record<string, string> {
  return correlationId === undefined ? {} : { [HeaderNames.correlationId]: correlationId };
}
