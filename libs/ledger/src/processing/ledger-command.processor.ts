import { Controller, Inject } from '@nestjs/common';
import { HeaderNames, type LedgerInput, ledgerInputSchema, type LedgerJournalEvent, type Markets, type OrderCommand, type TrackWithdrawal, Topics } from '@exchange/contracts';
import {
  applyIsolatingPoison,
  ConsumeBatches,
  deadLetterOf,
  describeFailure,
  type IncomingBatch,
  type IncomingRecord,
  type OutgoingRecord,
  PoisonRecord,
  sqlStateOf,
} from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, LOGGER, type Logger, MARKETS, Metrics } from '@exchange/platform';
import type { Counter, Histogram } from 'prom-client';
import { decide, rejectionOf } from '../domain/decide';
import { feeAccountIdOf, flowIdOf } from '../domain/ledger-ids';
import { RejectCode } from '../domain/ledger-rejection';
import { orderCommandsFor } from '../domain/engine-commands';
import { walletCommandsFor } from '../domain/wallet-commands';
import { evolve, initialLedgerState } from '../domain/ledger-state';
import { type LoadedPartition, LedgerStore } from '../persistence/ledger-store';
import { OutboxRelay } from './outbox-relay';

export const LEDGER_GROUP = 'ledger';

/**
 * Commands someone waits on for an answer: when one cannot be applied it is refused with a
 * CommandRejected. The others record facts decided elsewhere (a trade leg, an engine outcome, a
 * deposit, a withdrawal's end) that must not be lost: those are parked for an operator.
 */
const REQUESTS: ReadonlySet<string> = new Set(['CreateUser', 'CreateSubAccount', 'CreateApiKey', 'RevokeApiKey', 'TransferFunds', 'SetAccountFlags', 'PlaceOrder', 'RequestCancel', 'RequestWithdrawal', 'PlaceContractOrder', 'RequestContractCancel', 'ModifyPositionMargin']);

/**
 * The ledger's input: each batch of `ledger.commands` of one partition is decided in order,
 * folded into the hot state, and committed with its events and checkpoint in one PostgreSQL
 * transaction. Records below the checkpoint were applied before a crash and are skipped. A record
 * that cannot be applied never blocks its partition (applyIsolatingPoison): it is rejected or parked.
 */
@Controller()
export class LedgerCommandProcessor {
  private readonly state: ReturnType<typeof initialLedgerState>;
  private readonly partitions = new Map<number, LoadedPartition>();
  private readonly commitSeconds: Histogram<string>;
  private readonly batchSize: Histogram<string>;
  private readonly decided: Counter<'type' | 'outcome'>;
  private readonly poisoned: Counter<'outcome'>;

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
    this.poisoned = metrics.counter('ledger_poison_records_total', 'Records that could not be applied: rejected, or parked in operator.dead-letters', ['outcome']);
  }

  @ConsumeBatches({ topic: Topics.ledgerCommands.name, groupId: LEDGER_GROUP, fromBeginning: true })
  async onCommands(batch: IncomingBatch): Promise<void> {
    const loaded = await this.partition(batch.partition);
    const fresh = batch.records.filter((r) => r.offset >= loaded.nextOffset);
    if (fresh.length === 0) return;
    try {
      await applyIsolatingPoison(batch, fresh, {
        apply: (records, nextOffset) => this.applyRecords(batch, records, nextOffset, (command, record) => this.decideOne(command, record)),
        reject: (record, nextOffset, failure) => this.reject(batch, record, nextOffset, failure),
        park: (record, nextOffset, failure) => this.park(batch, record, nextOffset, failure),
        decided: (outcome, record, failure) => {
          this.poisoned.inc({ outcome });
          this.logger.error({ partition: record.partition, offset: record.offset, commandId: record.headers[HeaderNames.messageId], outcome, error: describeFailure(failure) }, `ledger: poison record ${outcome}`);
        },
      });
    } catch (error) {
      this.logger.error({ partition: batch.partition, fromOffset: fresh[0]!.offset, error: describeFailure(error) }, 'ledger: batch failed; its partition is retried after a back-off');
      throw error;
    }
    this.relay.wake();
  }

  /**
   * Decides `records` in order, folds them into the hot state and commits their events with the
   * checkpoint `nextOffset` in one transaction. On any failure the partition's hot state, which
   * ran ahead of what was committed, is forgotten and reloaded on the next attempt.
   */
  private async applyRecords(batch: IncomingBatch, records: IncomingRecord[], nextOffset: number, decideFor: (command: LedgerInput, record: IncomingRecord) => LedgerJournalEvent[]): Promise<void> {
    const loaded = await this.partition(batch.partition);
    const events: LedgerJournalEvent[] = [];
    const processed: { commandId: string; offset: number }[] = [];
    const correlationOf = new Map<string, string>();
    const outcomes: { type: string; outcome: string }[] = [];
    const decidedAt = this.clock.now();
    let stopTimer: () => number;
    try {
      for (const record of records) {
        if (record.offset < loaded.nextOffset) continue;
        const command = this.parse(record);
        if (loaded.processedCommandIds.has(command.id)) continue;
        const decided = decideFor(command, record);
        for (const event of decided) evolve(this.state, event);
        const correlationId = record.headers[HeaderNames.correlationId];
        if (correlationId !== undefined) for (const event of decided) correlationOf.set(event.id, correlationId);
        this.logger.debug({ correlationId, commandId: command.id, type: command.type, events: decided.map((e) => e.type) }, 'ledger: decided');
        events.push(...decided);
        outcomes.push({ type: command.type, outcome: decided[0]?.type === 'CommandRejected' ? 'rejected' : 'applied' });
        processed.push({ commandId: command.id, offset: record.offset });
        loaded.processedCommandIds.add(command.id, decidedAt);
      }
      loaded.processedCommandIds.expire(this.forgetProcessedBefore(decidedAt));
      stopTimer = this.commitSeconds.startTimer();
      await this.store.commitBatch({
        topic: batch.topic,
        partition: batch.partition,
        expectedOffset: loaded.nextOffset,
        nextOffset,
        events,
        processed,
        decidedAt,
        forgetProcessedBefore: this.forgetProcessedBefore(decidedAt),
        // The engine's commands leave with the events that decided them: same transaction.
        outbox: [
          ...events.map((e) => toOutgoing(e, correlationOf.get(e.id))),
          ...orderCommandsFor(events).map((c) => toEngineCommand(c, correlationOf.get(c.id))),
          ...walletCommandsFor(events).map((c) => toWalletCommand(c, correlationOf.get(c.id))),
        ],
      });
    } catch (error) {
      this.partitions.delete(batch.partition);
      throw error;
    }
    stopTimer();
    this.batchSize.observe(processed.length);
    for (const o of outcomes) this.decided.inc(o);
    loaded.nextOffset = nextOffset;
  }

  private decideOne(command: LedgerInput, record: IncomingRecord): LedgerJournalEvent[] {
    try {
      return decide(command, this.state, {
        now: this.clock.now(),
        flowId: (k) => flowIdOf(record.offset, record.partition, k),
        asset: (name) => this.markets.asset(name),
        symbol: (name) => this.markets.symbol(name),
        contract: (name) => this.markets.contract(name),
        feeAccountId: feeAccountIdOf(record.partition),
      });
    } catch (error) {
      // decide is a pure function of the command and the state: what throws here throws on every retry.
      throw new PoisonRecord(`ledger: deciding ${command.type} ${command.id} failed: ${describeFailure(error).message}`);
    }
  }

  /** A request (someone waits for its answer) is refused with a CommandRejected; facts decided elsewhere are parked instead. */
  private async reject(batch: IncomingBatch, record: IncomingRecord, nextOffset: number, failure: unknown): Promise<boolean> {
    const command = this.tryParse(record);
    if (!command || !REQUESTS.has(command.type)) return false;
    const state = sqlStateOf(failure);
    const code = state === '22021' || state === '22P05' ? RejectCode.ILLEGAL_CHARS : RejectCode.INVALID_VALUE;
    const msg = `The ${command.type} command holds a value the ledger cannot apply or store; nothing was changed.`;
    await this.applyRecords(batch, [record], nextOffset, (c) => rejectionOf(c, this.state, this.clock.now(), code, msg));
    return true;
  }

  /** Moves the checkpoint past the record and puts it in the dead letters, in one transaction; its id stays unprocessed, so it can be published again. */
  private async park(batch: IncomingBatch, record: IncomingRecord, nextOffset: number, failure: unknown): Promise<void> {
    const loaded = await this.partition(batch.partition);
    const decidedAt = this.clock.now();
    await this.store.commitBatch({
      topic: batch.topic,
      partition: batch.partition,
      expectedOffset: loaded.nextOffset,
      nextOffset,
      events: [],
      processed: [],
      decidedAt,
      forgetProcessedBefore: this.forgetProcessedBefore(decidedAt),
      outbox: [deadLetterOf('ledger', record, failure)],
    });
    loaded.nextOffset = nextOffset;
  }

  /** Processed ids older than the retry window are forgotten, in memory and in the batch's transaction. */
  private forgetProcessedBefore(decidedAt: number): number {
    return decidedAt - this.state.clientIdWindowMs;
  }

  private async partition(partition: number): Promise<LoadedPartition> {
    return this.partitions.get(partition) ?? (await this.loadPartition(partition));
  }

  private async loadPartition(partition: number): Promise<LoadedPartition> {
    const loaded = await this.store.loadPartition(this.state, Topics.ledgerCommands.name, partition, this.clock.now(), feeAccountIdOf(partition));
    this.partitions.set(partition, loaded);
    this.logger.info({ partition, nextOffset: loaded.nextOffset }, 'ledger partition loaded');
    return loaded;
  }

  private parse(record: IncomingRecord): LedgerInput {
    const command = this.tryParse(record);
    if (!command) throw new PoisonRecord(`ledger: the record at ${record.partition}/${record.offset} is not a ledger command`);
    return command;
  }

  private tryParse(record: IncomingRecord): LedgerInput | undefined {
    let json: unknown;
    try {
      json = JSON.parse(record.value);
    } catch {
      return undefined;
    }
    const parsed = ledgerInputSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
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
