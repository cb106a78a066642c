import { Module } from '@nestjs/common';
import { Topics } from '@exchange/contracts';
import { type EventLog, partitionForKey } from '@exchange/messaging';
import { CONFIG, type Config, DATABASE, dataSourceProviders, EVENT_LOG, openDataSource, type RunningDatabase, schemaName } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { CreateLedgerTables1767225600000 } from './migrations/1767225600000-create-ledger-tables';
import { CreateOrderTables1767312000000 } from './migrations/1767312000000-create-order-tables';
import { CreateWithdrawalTables1767398400000 } from './migrations/1767398400000-create-withdrawal-tables';
import { ExpireProcessedCommands1767571200000 } from './migrations/1767571200000-expire-processed-commands';
import { CreateContractTables1767657600000 } from './migrations/1767657600000-create-contract-tables';
import { CreateContractFundings1767830400000 } from './migrations/1767830400000-create-contract-fundings';
import { LedgerStore } from './persistence/ledger-store';
import { ContractPriceRelay } from './processing/contract-price-relay';
import { LedgerCommandProcessor } from './processing/ledger-command.processor';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './processing/ledger.tokens';
import { OutboxRelay } from './processing/outbox-relay';

export const ledgerMigrations = [CreateLedgerTables1767225600000, CreateOrderTables1767312000000, CreateWithdrawalTables1767398400000, ExpireProcessedCommands1767571200000, CreateContractTables1767657600000, CreateContractFundings1767830400000];

/** Accounts, balances, balance flow and the account-side record of orders: a fold over ledger.commands. */
@Module({
  controllers: [LedgerCommandProcessor, ContractPriceRelay],
  providers: [
    { provide: LEDGER_SCHEMA, inject: [CONFIG], useFactory: (config: Config) => schemaName(config, 'ledger') },
    ...dataSourceProviders(LEDGER_DATA_SOURCE, [DATABASE, LEDGER_SCHEMA], (database: RunningDatabase, schema: string) =>
      openDataSource({ url: database.url, schema, entities: [], migrations: ledgerMigrations }),
    ),
    {
      provide: LedgerStore,
      inject: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA, EVENT_LOG],
      useFactory: async (dataSource: DataSource, schema: string, log: EventLog) => {
        const partitions = await log.partitionCount(Topics.ledgerCommands.name);
        return new LedgerStore(dataSource, schema, (userId) => partitionForKey(userId, partitions), partitions);
      },
    },
    OutboxRelay,
  ],
  exports: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA],
})
export class LedgerModule {}
