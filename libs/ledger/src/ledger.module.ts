import { Module } from '@nestjs/common';
import { Topics } from '@exchange/contracts';
import { type EventLog, partitionForKey } from '@exchange/messaging';
import {
  CONFIG,
  type Config,
  DATABASE,
  dataSourceProviders,
  EVENT_LOG,
  openDataSource,
  type RunningDatabase,
  schemaName,
} from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { CreateLedgerTables1767225600000 } from './migrations/1767225600000-create-ledger-tables';
import { CreateOrderTables1767312000000 } from './migrations/1767312000000-create-order-tables';
import { CreateWithdrawalTables1767398400000 } from './migrations/1767398400000-create-withdrawal-tables';
import { ExpireProcessedCommands1767571200000 } from './migrations/1767571200000-expire-processed-commands';
import { CreateContractTables1767657600000 } from './migrations/1767657600000-create-contract-tables';
import { ProjectionCheckpoints1767744000000 } from './migrations/1767744000000-projection-checkpoints';
import { LedgerProjector } from './persistence/ledger-projector';
import { CreateContractFundings1767830400000 } from './migrations/1767830400000-create-contract-fundings';
import { CreateContractMarks1767916800000 } from './migrations/1767916800000-create-contract-marks';
import { ContractFoldRest1768003200000 } from './migrations/1768003200000-contract-fold-rest';
import { LedgerStore } from './persistence/ledger-store';
import { ContractPriceRelay } from './processing/contract-price-relay';
import { LedgerCommandProcessor } from './processing/ledger-command.processor';
import { LedgerRecovery } from './processing/ledger-recovery';
import { LedgerSnapshotStore } from './processing/ledger-snapshot-store';
import { LedgerSnapshots } from './processing/ledger-snapshots';
import { LEDGER_DATA_SOURCE, LEDGER_PARTITION_OF, LEDGER_PARTITIONS, LEDGER_SCHEMA } from './processing/ledger.tokens';

export const ledgerMigrations = [
  CreateLedgerTables1767225600000,
  CreateOrderTables1767312000000,
  CreateWithdrawalTables1767398400000,
  ExpireProcessedCommands1767571200000,
  CreateContractTables1767657600000,
  ProjectionCheckpoints1767744000000,
  CreateContractFundings1767830400000,
  CreateContractMarks1767916800000,
  ContractFoldRest1768003200000,
];

/**
 * Accounts, balances, balance flow and the account-side record of orders: a fold over
 * ledger.commands kept in memory and journaled on ledger.events (LedgerCommandProcessor), and
 * the query tables in PostgreSQL, a projection of that journal (LedgerProjector).
 */
@Module({
  controllers: [LedgerCommandProcessor, LedgerProjector, ContractPriceRelay],
  providers: [
    { provide: LEDGER_SCHEMA, inject: [CONFIG], useFactory: (config: Config) => schemaName(config, 'ledger') },
    ...dataSourceProviders(LEDGER_DATA_SOURCE, [DATABASE, LEDGER_SCHEMA], (database: RunningDatabase, schema: string) =>
      openDataSource({ url: database.url, schema, entities: [], migrations: ledgerMigrations }),
    ),
    {
      provide: LEDGER_PARTITIONS,
      inject: [EVENT_LOG],
      useFactory: (log: EventLog) => log.partitionCount(Topics.ledgerCommands.name),
    },
    {
      provide: LEDGER_PARTITION_OF,
      inject: [LEDGER_PARTITIONS],
      useFactory: (partitions: number) => (userId: string) => partitionForKey(userId, partitions),
    },
    {
      provide: LedgerStore,
      inject: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA, LEDGER_PARTITION_OF],
      useFactory: (dataSource: DataSource, schema: string, partitionOf: (userId: string) => number) =>
        new LedgerStore(dataSource, schema, partitionOf),
    },
    LedgerSnapshotStore,
    LedgerSnapshots,
    LedgerRecovery,
  ],
  exports: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA],
})
export class LedgerModule {}
