import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { type LedgerCommand, type LedgerJournalEvent, Markets, type WalletEvent } from '@exchange/contracts';
import {
  decide,
  evolve,
  initialLedgerState,
  ledgerMigrations,
  projectionRows,
  writeProjection as writeLedgerProjection,
} from '@exchange/ledger';
import { openDataSource, type SchemaQueries, schemaQueries } from '@exchange/platform';
import { assets, btcusdt } from '../../libs/ledger/src/domain/spot-market.fixtures';
import { walletMigrations, writeProjection as writeWalletProjection } from '@exchange/wallet';
import type { DataSource } from 'typeorm';

/**
 * A service's schema of its own for one read-model spec: migrated as the service migrates it,
 * written by the service's projection, read through a query lib, dropped at the end.
 */
export class ReadModelSchema {
  private constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
  ) {}

  static async open(service: 'ledger' | 'wallet'): Promise<ReadModelSchema> {
    const schema = `rm_${service}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const migrations = service === 'ledger' ? ledgerMigrations : walletMigrations;
    const dataSource = await openDataSource({ url: process.env.DATABASE_URL!, schema, entities: [], migrations });
    return new ReadModelSchema(dataSource, schema);
  }

  /** What a reader of another service is handed: this schema, through the SchemaQueries it reads with. */
  get queries(): SchemaQueries {
    return schemaQueries(this.dataSource, this.schema);
  }

  /** The ledger's projection of `events`, in one transaction, as the live ledger writes a batch. */
  async projectLedger(events: readonly LedgerJournalEvent[]): Promise<void> {
    await this.dataSource.transaction((m) =>
      writeLedgerProjection(
        m.queryRunner!,
        this.schema,
        projectionRows(events, () => 0),
      ),
    );
  }

  async projectWallet(events: readonly WalletEvent[]): Promise<void> {
    await this.dataSource.transaction((m) => writeWalletProjection(m.queryRunner!, this.schema, events));
  }

  async close(): Promise<void> {
    await this.dataSource.query(`DROP SCHEMA "${this.schema}" CASCADE`);
    await this.dataSource.destroy();
  }
}

export const T0 = 1_700_000_000_000;
export const FEES = '9000000001';

/** The shipped contract symbols (BTC-SWAP-USDT, ETH-SWAP-USDT), for specs that trade contracts. */
const shipped = Markets.fromFile(resolve(__dirname, '../../config/markets.json'));

type Payload<T extends LedgerCommand['type']> = Extract<LedgerCommand, { type: T }>['payload'];
let ids = 0;

export function ledgerCommand<T extends LedgerCommand['type']>(type: T, payload: Payload<T>): LedgerCommand {
  return {
    type,
    v: type === 'ApplyOrderOutcome' || type === 'SettleTradeLeg' ? 2 : 1,
    id: `rm${++ids}`,
    ts: T0,
    payload,
  } as LedgerCommand;
}

/**
 * The events the ledger journals for `commands`, decided one after the other by its decider
 * (command i at T0 + i ms). Every command must be accepted: a read-model spec reads what happened.
 */
export function ledgerJournal(commands: readonly LedgerCommand[]): LedgerJournalEvent[] {
  const state = initialLedgerState();
  return commands.flatMap((command, i) => {
    const ctx = {
      now: T0 + i,
      flowId: (k: number) => String(i * 16 + k + 1),
      asset: (n: string) => assets[n],
      symbol: (s: string) => (s === 'BTCUSDT' ? btcusdt : undefined),
      contract: (s: string) => shipped.contract(s),
      feeAccountId: FEES,
    };
    const events = decide(command, state, ctx);
    for (const event of events) {
      if (event.type === 'CommandRejected') throw new Error(`${command.type} was rejected: ${event.payload.msg}`);
      evolve(state, event);
    }
    return events;
  });
}

/** The sequence of `userId`'s last event in `journal`: what the projection's users.seq holds after it. */
export function lastSeqOf(journal: readonly LedgerJournalEvent[], userId: string): number {
  return Math.max(0, ...journal.filter((e) => e.payload.userId === userId).map((e) => e.payload.seq));
}
