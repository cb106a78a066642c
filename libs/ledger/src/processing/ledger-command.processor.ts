import { Controller, Inject, type OnApplicationShutdown } from '@nestjs/common';
import {
  HeaderNames,
  type LedgerCommand,
  type LedgerJournalEvent,
  type Markets,
  parseLedgerCommand,
  Topics,
} from '@exchange/contracts';
import {
  type BatchOutcome,
  ConsumeBatches,
  deadLetterOf,
  decodeRecord,
  describeFailure,
  type EventLog,
  type IncomingBatch,
  type IncomingRecord,
  type OutgoingRecord,
  PoisonRecord,
  type ProcessedIds,
  sqlStateOf,
} from '@exchange/messaging';
import {
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  EVENT_LOG,
  LOGGER,
  type Logger,
  MARKETS,
  Metrics,
} from '@exchange/platform';
import type { Counter, Histogram } from 'prom-client';
import { decide, rejectionOf } from '../domain/decide';
import { feeAccountIdOf, flowIdOf } from '../domain/ledger-ids';
import { RejectCode } from '../domain/ledger-rejection';
import { evolve, initialLedgerState } from '../domain/ledger-state';
import { decisionRecords, unstorableText } from './ledger-records';
import { LedgerRecovery } from './ledger-recovery';
import { LEDGER_PARTITION_OF, LEDGER_PARTITIONS } from './ledger.tokens';
import { LedgerSnapshots } from './ledger-snapshots';
import { partitionContextOf } from './partition-context';

export const LEDGER_GROUP = 'ledger';

/**
 * Commands someone waits on for an answer: when one cannot be applied it is refused with a
 * CommandRejected. The others record facts decided elsewhere (a trade leg, an engine outcome, a
 * deposit, a withdrawal's end) that must not be lost: those are parked for an operator.
 */
const REQUESTS: ReadonlySet<string> = new Set([
  'CreateUser',
  'CreateSubAccount',
  'CreateApiKey',
  'RevokeApiKey',
  'TransferFunds',
  'SetAccountFlags',
  'PlaceOrder',
  'RequestCancel',
  'RequestWithdrawal',
  'PlaceContractOrder',
  'RequestContractCancel',
  'ModifyPositionMargin',
  'SeedInsuranceFund',
]);

/** Text the projection could not store, refused as PostgreSQL would refuse it (SQLSTATE 22021). */
class UnstorableText extends PoisonRecord {
  readonly code = '22021';
}

interface PartitionProgress {
  partition: number;
  /** The hot state includes exactly the commands of the partition below this offset. */
  nextOffset: number;
  processed: ProcessedIds;
}

/**
 * The ledger's input. Each batch of one `ledger.commands` partition is decided in order and folded
 * into the hot state; its ledger.events, the engine's and the wallet's commands, its dead letters,
 * any snapshot it triggers and its input offset are committed as one atomic step of the event log
 * (ARCHITECTURE rule 5): one journal entry embedded, one Kafka transaction distributed. No
 * database is on this path: PostgreSQL is a projection of ledger.events (LedgerProjector). A
 * batch that does not start where the partition's state stands (the first after a start or a
 * rebalance, a redelivery after a failed commit) first restores it from snapshot and journal.
 */
@Controller()
export class LedgerCommandProcessor implements OnApplicationShutdown {
  private readonly state: ReturnType<typeof initialLedgerState>;
  private readonly partitions = new Map<number, PartitionProgress>();
  private readonly batchSize: Histogram<string>;
  private readonly decided: Counter<'type' | 'outcome'>;
  private readonly poisoned: Counter<'outcome'>;

  constructor(
    private readonly recovery: LedgerRecovery,
    private readonly snapshots: LedgerSnapshots,
    @Inject(LEDGER_PARTITION_OF) private readonly partitionOf: (userId: string) => number,
    @Inject(LEDGER_PARTITIONS) private readonly partitionCount: number,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
    @Inject(CONFIG) config: Config,
  ) {
    this.state = initialLedgerState(config.RETRY_WINDOW_MS);
    this.batchSize = metrics.histogram(
      'ledger_batch_commands',
      'Commands per committed batch',
      [],
      [1, 2, 5, 10, 50, 100, 500, 1000, 5000],
    );
    this.decided = metrics.counter('ledger_commands_total', 'Commands decided, by type and outcome', [
      'type',
      'outcome',
    ]);
    this.poisoned = metrics.counter(
      'ledger_poison_records_total',
      'Records that could not be applied: rejected, or parked in operator.dead-letters',
      ['outcome'],
    );
  }

  // Its effects are the records it returns and the hot state: it may decide from records not yet synced (ConsumerOptions.readUnsynced).
  @ConsumeBatches({ topic: Topics.ledgerCommands.name, groupId: LEDGER_GROUP, fromBeginning: true, readUnsynced: true })
  async onCommands(batch: IncomingBatch): Promise<BatchOutcome> {
    const start = batch.records[0]?.offset;
    if (start === undefined) return {};
    try {
      const progress = await this.catchUp(batch.partition, start, batch.fromOffset);
      const emit: OutgoingRecord[] = await this.snapshots.dueRecords(
        this.state,
        this.scopeOf(batch.partition),
        start,
        progress.processed,
        batch.records.length,
      );
      const decidedAt = this.clock.now();
      for (const record of batch.records)
        emit.push(...this.decideRecord(record, progress, decidedAt, batch.nextOffset));
      progress.processed.expire(decidedAt - this.state.clientIdWindowMs);
      progress.nextOffset = batch.nextOffset;
      this.batchSize.observe(batch.records.length);
      return { emit };
    } catch (error) {
      // The state may hold part of this batch, which was not committed: the retry restores it.
      this.partitions.delete(batch.partition);
      this.logger.error(
        { partition: batch.partition, fromOffset: start, error: describeFailure(error) },
        'ledger: batch failed; its partition is retried after a back-off',
      );
      throw error;
    }
  }

  /**
   * On a graceful stop, after the consumers have stopped: snapshot each partition whose state
   * matches its committed offset exactly (a batch decided but not committed must not be captured).
   */
  async onApplicationShutdown(): Promise<void> {
    try {
      const committed = await this.log.committedOffsets(LEDGER_GROUP, Topics.ledgerCommands.name);
      const records: OutgoingRecord[] = [];
      for (const [partition, progress] of this.partitions) {
        if (committed[partition] !== progress.nextOffset) continue;
        records.push(
          ...(await this.snapshots.finalRecords(
            this.state,
            this.scopeOf(partition),
            progress.nextOffset,
            progress.processed,
          )),
        );
      }
      await this.log.publish(records);
    } catch (error) {
      // Only a shortcut is lost: the next start folds from the previous snapshot.
      this.logger.warn({ error: describeFailure(error) }, 'ledger: shutdown snapshot not written');
    }
  }

  /** The records of one command's decision, its poison handling included; none for a command decided before. */
  private decideRecord(
    record: IncomingRecord,
    progress: PartitionProgress,
    decidedAt: number,
    inputNext: number,
  ): OutgoingRecord[] {
    let command: LedgerCommand | undefined;
    try {
      command = this.parse(record);
      if (progress.processed.has(command.id)) return [];
      const events = this.decideOne(command, record);
      const correlationId = record.headers[HeaderNames.correlationId];
      const records = decisionRecords(events, correlationId, inputNext, record.partition);
      if (unstorableText(records.map((r) => r.value)))
        throw new UnstorableText(
          `ledger: ${command.type} ${command.id} holds a NUL, which the projection cannot store`,
        );
      this.apply(command, events, progress, decidedAt);
      this.logger.debug(
        { correlationId, commandId: command.id, type: command.type, events: events.map((e) => e.type) },
        'ledger: decided',
      );
      return records;
    } catch (failure) {
      if (!(failure instanceof PoisonRecord)) throw failure;
      return this.poison(record, command, failure, progress, decidedAt, inputNext);
    }
  }

  private apply(
    command: LedgerCommand,
    events: LedgerJournalEvent[],
    progress: PartitionProgress,
    decidedAt: number,
  ): void {
    for (const event of events) {
      this.snapshots.folding(progress.partition, event, this.state);
      evolve(this.state, event);
    }
    progress.processed.add(command.id, decidedAt);
    this.snapshots.decided(progress.partition, command.id, decidedAt, events, this.state);
    this.decided.inc({ type: command.type, outcome: events[0]?.type === 'CommandRejected' ? 'rejected' : 'applied' });
  }

  /**
   * A record that cannot be applied never blocks its partition: a request (someone waits for its
   * answer) is refused with a CommandRejected; anything else is parked in the dead letters, its id
   * left unprocessed so it can be published again once its cause is fixed.
   */
  private poison(
    record: IncomingRecord,
    command: LedgerCommand | undefined,
    failure: PoisonRecord,
    progress: PartitionProgress,
    decidedAt: number,
    inputNext: number,
  ): OutgoingRecord[] {
    const outcome = command && REQUESTS.has(command.type) ? 'rejected' : 'parked';
    this.poisoned.inc({ outcome });
    this.logger.error(
      {
        partition: record.partition,
        offset: record.offset,
        commandId: record.headers[HeaderNames.messageId],
        outcome,
        error: describeFailure(failure),
      },
      `ledger: poison record ${outcome}`,
    );
    if (!command || outcome === 'parked') return [deadLetterOf('ledger', record, failure)];
    const state = sqlStateOf(failure);
    const code = state === '22021' || state === '22P05' ? RejectCode.ILLEGAL_CHARS : RejectCode.INVALID_VALUE;
    const msg = `The ${command.type} command holds a value the ledger cannot apply or store; nothing was changed.`;
    const events = rejectionOf(
      command,
      this.state,
      this.clock.now(),
      code,
      msg,
      partitionContextOf(this.state, record.partition, this.partitionCount, record.offset),
    );
    this.apply(command, events, progress, decidedAt);
    return decisionRecords(events, record.headers[HeaderNames.correlationId], inputNext, record.partition);
  }

  private decideOne(command: LedgerCommand, record: IncomingRecord): LedgerJournalEvent[] {
    try {
      return decide(command, this.state, {
        now: this.clock.now(),
        flowId: (k) => flowIdOf(record.offset, record.partition, k),
        asset: (name) => this.markets.asset(name),
        symbol: (name) => this.markets.symbol(name),
        contract: (name) => this.markets.contract(name),
        feeAccountId: feeAccountIdOf(record.partition),
        partition: partitionContextOf(this.state, record.partition, this.partitionCount, record.offset),
      });
    } catch (error) {
      // decide is a pure function of the command and the state: what throws here throws on every retry.
      throw new PoisonRecord(
        `ledger: deciding ${command.type} ${command.id} failed: ${describeFailure(error).message}`,
      );
    }
  }

  /** The partition's progress, its state first restored when it does not stand at `start` (or where the batch continues from: see IncomingBatch.fromOffset). */
  private async catchUp(
    partition: number,
    start: number,
    continuesFrom: number | undefined,
  ): Promise<PartitionProgress> {
    const known = this.partitions.get(partition);
    if (known && (known.nextOffset === start || known.nextOffset === continuesFrom)) return known;
    const { processed, snapshot, changes } = await this.recovery.rebuild(this.state, this.scopeOf(partition), start);
    const progress = { partition, nextOffset: start, processed };
    this.partitions.set(partition, progress);
    this.snapshots.restored(partition, snapshot, changes);
    return progress;
  }

  private scopeOf(partition: number) {
    return { partition, partitionOf: this.partitionOf, feeAccountId: feeAccountIdOf(partition) };
  }

  private parse(record: IncomingRecord): LedgerCommand {
    const command = decodeRecord(record, parseLedgerCommand);
    if (!command)
      throw new PoisonRecord(`ledger: the record at ${record.partition}/${record.offset} is not a ledger command`);
    return command;
  }
}
