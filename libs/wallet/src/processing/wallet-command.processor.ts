import { Controller, Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { HeaderNames, type Markets, Topics, type WalletCommand, walletCommandSchema, type WalletEvent, type WithdrawalRecord, walletSettingsOf } from '@exchange/contracts';
import { ConsumeBatches, type IncomingBatch, type IncomingRecord, type OutgoingRecord, readCheckpoint, writeBookkeeping } from '@exchange/messaging';
import { CLOCK, type Clock, CONFIG, type Config, LOGGER, type Logger, MARKETS } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { CHAIN_ADAPTER, type ChainAdapter } from '../chain/chain-adapter.port';
import { decide } from '../domain/decide';
import { effectsOf } from '../domain/wallet-effects';
import { evolve } from '../domain/wallet-state';
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
 * Withdrawals that entered processing go to the chain adapter after the commit.
 */
@Controller()
export class WalletCommandProcessor implements OnApplicationBootstrap {
  constructor(
    @Inject(WALLET_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(WALLET_SCHEMA) private readonly schema: string,
    @Inject(CHAIN_ADAPTER) private readonly chain: ChainAdapter,
    private readonly outbox: WalletOutboxRelay,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** A crash between a commit and its broadcast loses nothing: every processing withdrawal is broadcast again. */
  async onApplicationBootstrap(): Promise<void> {
    const rows: { record: WithdrawalRecord }[] = await this.dataSource.query(`SELECT record FROM "${this.schema}".withdrawals WHERE status = 5 ORDER BY withdrawal_id`);
    await this.broadcast(rows.map((r) => r.record).filter((w) => !w.internalTo));
  }

  @ConsumeBatches({ topic: Topics.walletCommands.name, groupId: WALLET_GROUP, fromBeginning: true })
  async onCommands(batch: IncomingBatch): Promise<void> {
    const toBroadcast = await this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const expectedOffset = await readCheckpoint(runner, this.schema, batch.topic, batch.partition);
      const fresh = batch.records.filter((r) => r.offset >= expectedOffset).flatMap((r) => this.parse(r));
      if (fresh.length === 0 && expectedOffset >= batch.nextOffset) return [];
      const ids = fresh.map((f) => f.command.id);
      const done = new Set((await runner.query(`SELECT command_id FROM "${this.schema}".processed_commands WHERE command_id = ANY($1::text[])`, [ids])).map((r: { command_id: string }) => r.command_id));
      const state = await loadStateFor(runner, this.schema, fresh.map((f) => f.command));
      const events: WalletEvent[] = [];
      const processed: { commandId: string; offset: number }[] = [];
      for (const { command, offset } of fresh) {
        if (done.has(command.id)) continue;
        done.add(command.id);
        const event = decide(command, state, {
          now: this.clock.now(),
          newId: () => depositIdOf(offset, batch.partition),
          settings: (asset) => walletSettingsOf(this.markets.asset(asset) ?? { asset, precision: 0 }),
        });
        evolve(state, event);
        events.push(event);
        processed.push({ commandId: command.id, offset });
      }
      const effects = events.map(effectsOf);
      const outbox: OutgoingRecord[] = [
        ...events.map((e) => record(Topics.walletEvents.name, e.payload.userId, e, e.payload.commandId)),
        ...effects.flatMap((x) => x.ledger.map((c) => record(Topics.ledgerCommands.name, c.payload.userId, c))),
        ...effects.flatMap((x) => x.wallet.map((c) => record(Topics.walletCommands.name, c.payload.userId, c))),
      ];
      const decidedAt = this.clock.now();
      await writeBookkeeping(runner, this.schema, {
        topic: batch.topic,
        partition: batch.partition,
        expectedOffset,
        nextOffset: batch.nextOffset,
        processed,
        decidedAt,
        forgetProcessedBefore: decidedAt - this.config.RETRY_WINDOW_MS,
        outbox,
      });
      await writeProjection(runner, this.schema, events);
      return effects.flatMap((x) => x.broadcast);
    });
    this.outbox.relay.wake();
    await this.broadcast(toBroadcast);
  }

  private async broadcast(withdrawals: readonly WithdrawalRecord[]): Promise<void> {
    for (const w of withdrawals) {
      // The move to processing is committed; a failed broadcast is retried at the next start.
      await this.chain.broadcast(w).catch((error: unknown) => this.logger.error({ err: error, withdrawalId: w.withdrawalId }, 'wallet: broadcast failed'));
    }
  }

  private parse(record: IncomingRecord): { command: WalletCommand; offset: number }[] {
    let json: unknown;
    try {
      json = JSON.parse(record.value);
    } catch {
      json = undefined;
    }
    const parsed = walletCommandSchema.safeParse(json);
    if (parsed.success) return [{ command: parsed.data, offset: record.offset }];
    this.logger.warn({ partition: record.partition, offset: record.offset, issues: parsed.error.issues.slice(0, 3) }, 'wallet: skipped a record that is not a wallet command');
    return [];
  }
}

function record(topic: string, key: string, message: { id: string; type: string }, causationId?: string): OutgoingRecord {
  return {
    topic,
    key,
    value: JSON.stringify(message),
    headers: { [HeaderNames.messageId]: message.id, [HeaderNames.messageType]: message.type, ...(causationId ? { [HeaderNames.causationId]: causationId } : {}) },
  };
}
