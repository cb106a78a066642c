import { Controller, Inject, type OnApplicationBootstrap } from '@nestjs/common';
import {
  HeaderNames,
  type Markets,
  Topics,
  toRecord,
  type WalletCommand,
  walletCommandSchema,
  type WalletEvent,
  type WithdrawalRecord,
  walletSettingsOf,
} from '@exchange/contracts';
import {
  applyIsolatingPoison,
  ConsumeBatches,
  deadLetterOf,
  describeFailure,
  type IncomingBatch,
  type IncomingRecord,
  type OutgoingRecord,
  PoisonRecord,
  readCheckpoint,
  sqlStateOf,
  writeBookkeeping,
} from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, LOGGER, type Logger, MARKETS, Metrics } from '@exchange/platform';
import type { Counter } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CHAIN_ADAPTER, type ChainAdapter } from '../chain/chain-adapter.port';
import { decide, rejectionOf } from '../domain/decide';
import { WalletRejectCode } from '../domain/wallet-rejection';
import { effectsOf } from '../domain/wallet-effects';
import { evolve, type WalletState } from '../domain/wallet-state';
import { loadStateFor, writeProjection } from '../persistence/wallet-projection';
import { WalletOutboxRelay } from './wallet-outbox-relay';
import { WALLET_DATA_SOURCE, WALLET_GROUP, WALLET_SCHEMA } from './wallet.tokens';

/** Deposit ids come from the command's position in the log, so a rebuild reproduces them. */
export function depositIdOf(offset: number, partition: number): string {
  if (partition >= 16) throw new Error('wallet: deposit id space exceeded');
  return String(offset * 16 + partition + 1);
}

/**
 * The wallet's one input: each batch of one `wallet.commands` partition is decided in order
 * against the records it names (loaded from the wallet's tables), and its events, projections,
 * outbox (ledger settlements, releases, deposit credits) and checkpoint commit in one PostgreSQL
 * transaction. Records below the checkpoint, and ids already processed, are skipped.
 * Withdrawals that entered processing go to the chain adapter after the commit. A record that
 * cannot be applied never blocks its partition (applyIsolatingPoison): it is rejected or parked.
 */
@Controller()
export class WalletCommandProcessor implements OnApplicationBootstrap {
  private readonly poisoned: Counter<'outcome'>;

  constructor(
    @Inject(WALLET_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(WALLET_SCHEMA) private readonly schema: string,
    @Inject(CHAIN_ADAPTER) private readonly chain: ChainAdapter,
    private readonly outbox: WalletOutboxRelay,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.poisoned = metrics.counter(
      'wallet_poison_records_total',
      'Records that could not be applied: rejected, or parked in operator.dead-letters',
      ['outcome'],
    );
  }

  /** A crash between a commit and its broadcast loses nothing: every processing withdrawal is broadcast again. */
  async onApplicationBootstrap(): Promise<void> {
    const rows: { record: WithdrawalRecord }[] = await this.dataSource.query(
      `SELECT record FROM "${this.schema}".withdrawals WHERE status = 5 ORDER BY withdrawal_id`,
    );
    await this.broadcast(rows.map((r) => r.record).filter((w) => !w.internalTo));
  }

  @ConsumeBatches({ topic: Topics.walletCommands.name, groupId: WALLET_GROUP, fromBeginning: true })
  async onCommands(batch: IncomingBatch): Promise<void> {
    try {
      await applyIsolatingPoison(batch, batch.records, {
        apply: (records, nextOffset) =>
          this.applyRecords(batch, records, nextOffset, (command, state, offset) =>
            this.decideOne(command, state, offset, batch.partition),
          ),
        reject: (record, nextOffset, failure) => this.reject(batch, record, nextOffset, failure),
        park: (record, nextOffset, failure) => this.park(batch, record, nextOffset, failure),
        decided: (outcome, record, failure) => {
          this.poisoned.inc({ outcome });
          this.logger.error(
            {
              partition: record.partition,
              offset: record.offset,
              commandId: record.headers[HeaderNames.messageId],
              outcome,
              error: describeFailure(failure),
            },
            `wallet: poison record ${outcome}`,
          );
        },
      });
    } catch (error) {
      this.logger.error(
        { partition: batch.partition, fromOffset: batch.records[0]?.offset, error: describeFailure(error) },
        'wallet: batch failed; its partition is retried after a back-off',
      );
      throw error;
    }
  }

  /** Decides `records` against the records they name and commits it all with the checkpoint `nextOffset`, in one transaction. */
  private async applyRecords(
    batch: IncomingBatch,
    records: IncomingRecord[],
    nextOffset: number,
    decideFor: (command: WalletCommand, state: WalletState, offset: number) => WalletEvent,
  ): Promise<void> {
    const toBroadcast = await this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const expectedOffset = await readCheckpoint(runner, this.schema, batch.topic, batch.partition);
      const fresh = records
        .filter((r) => r.offset >= expectedOffset)
        .map((r) => ({ command: this.parse(r), offset: r.offset }));
      if (fresh.length === 0 && expectedOffset >= nextOffset) return [];
      const ids = fresh.map((f) => f.command.id);
      const done = new Set(
        (
          await runner.query(
            `SELECT command_id FROM "${this.schema}".processed_commands WHERE command_id = ANY($1::text[])`,
            [ids],
          )
        ).map((r: { command_id: string }) => r.command_id),
      );
      const state = await loadStateFor(
        runner,
        this.schema,
        fresh.map((f) => f.command),
      );
      const events: WalletEvent[] = [];
      const processed: { commandId: string; offset: number }[] = [];
      for (const { command, offset } of fresh) {
        if (done.has(command.id)) continue;
        done.add(command.id);
        const event = decideFor(command, state, offset);
        evolve(state, event);
        events.push(event);
        processed.push({ commandId: command.id, offset });
      }
      const effects = events.map(effectsOf);
      const outbox: OutgoingRecord[] = [
        ...events.map((e) => toRecord(Topics.walletEvents, e, { causation: e.payload.commandId })),
        ...effects.flatMap((x) => x.ledger.map((c) => toRecord(Topics.ledgerCommands, c))),
        ...effects.flatMap((x) => x.wallet.map((c) => toRecord(Topics.walletCommands, c))),
      ];
      await writeBookkeeping(runner, this.schema, {
        topic: batch.topic,
        partition: batch.partition,
        expectedOffset,
        nextOffset,
        processed,
        outbox,
        ...this.processedWindow(),
      });
      await writeProjection(runner, this.schema, events);
      return effects.flatMap((x) => x.broadcast);
    });
    this.outbox.relay.wake();
    await this.broadcast(toBroadcast);
  }

  private decideOne(command: WalletCommand, state: WalletState, offset: number, partition: number): WalletEvent {
    try {
      return decide(command, state, {
        now: this.clock.now(),
        newId: () => depositIdOf(offset, partition),
        settings: (asset) => walletSettingsOf(this.markets.asset(asset) ?? { asset, precision: 0 }),
      });
    } catch (error) {
      // decide is a pure function of the command and the records it names: what throws here throws on every retry.
      throw new PoisonRecord(
        `wallet: deciding ${command.type} ${command.id} failed: ${describeFailure(error).message}`,
      );
    }
  }

  /** Operator and chain commands are refused with a WalletCommandRejected; a TrackWithdrawal (a hold the ledger made) is parked instead. */
  private async reject(
    batch: IncomingBatch,
    record: IncomingRecord,
    nextOffset: number,
    failure: unknown,
  ): Promise<boolean> {
    const command = this.tryParse(record);
    if (!command || command.type === 'TrackWithdrawal') return false;
    const state = sqlStateOf(failure);
    const code =
      state === '22021' || state === '22P05' ? WalletRejectCode.ILLEGAL_CHARS : WalletRejectCode.INVALID_VALUE;
    const msg = `The ${command.type} command holds a value the wallet cannot apply or store; nothing was changed.`;
    await this.applyRecords(batch, [record], nextOffset, (c) => rejectionOf(c, this.clock.now(), code, msg));
    return true;
  }

  /** Moves the checkpoint past the record and puts it in the dead letters, in one transaction; its id stays unprocessed, so it can be published again. */
  private async park(
    batch: IncomingBatch,
    record: IncomingRecord,
    nextOffset: number,
    failure: unknown,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const expectedOffset = await readCheckpoint(runner, this.schema, batch.topic, batch.partition);
      await writeBookkeeping(runner, this.schema, {
        topic: batch.topic,
        partition: batch.partition,
        expectedOffset,
        nextOffset,
        processed: [],
        outbox: [deadLetterOf('wallet', record, failure)],
        ...this.processedWindow(),
      });
    });
    this.outbox.relay.wake();
  }

  /** Processed ids are remembered for the retry window, then forgotten in a later batch's transaction. */
  private processedWindow(): { decidedAt: number; forgetProcessedBefore: number } {
    const decidedAt = this.clock.now();
    return { decidedAt, forgetProcessedBefore: decidedAt - this.config.RETRY_WINDOW_MS };
  }

  private async broadcast(withdrawals: readonly WithdrawalRecord[]): Promise<void> {
    for (const w of withdrawals) {
      // The move to processing is committed; a failed broadcast is retried at the next start.
      await this.chain
        .broadcast(w)
        .catch((error: unknown) =>
          this.logger.error({ err: error, withdrawalId: w.withdrawalId }, 'wallet: broadcast failed'),
        );
    }
  }

  private parse(record: IncomingRecord): WalletCommand {
    const command = this.tryParse(record);
    if (!command)
      throw new PoisonRecord(`wallet: the record at ${record.partition}/${record.offset} is not a wallet command`);
    return command;
  }

  private tryParse(record: IncomingRecord): WalletCommand | undefined {
    let json: unknown;
    try {
      json = JSON.parse(record.value);
    } catch {
      return undefined;
    }
    const parsed = walletCommandSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  }
}
