import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Topics } from '@exchange/contracts';
import { type EventLog, partitionForKey } from '@exchange/messaging';
import { CONFIG, type Config, DATABASE, EVENT_LOG, openDataSource, type RunningDatabase, schemaName } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { CreateLedgerTables1767225600000 } from './migrations/1767225600000-create-ledger-tables';
import { LedgerStore } from './persistence/ledger-store';
import { LedgerCommandProcessor } from './processing/ledger-command.processor';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './processing/ledger.tokens';
import { OutboxRelay } from './processing/outbox-relay';

export const ledgerMigrations = [CreateLedgerTables1767225600000];

@Injectable()
class LedgerDataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(LEDGER_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Accounts, balances, balance flow and the account-side record of orders: a fold over ledger.commands. */
@Module({
  controllers: [LedgerCommandProcessor],
  providers: [
    { provide: LEDGER_SCHEMA, inject: [CONFIG], useFactory: (config: Config) => schemaName(config, 'ledger') },
    {
      provide: LEDGER_DATA_SOURCE,
      inject: [DATABASE, LEDGER_SCHEMA],
      useFactory: (database: RunningDatabase, schema: string) => openDataSource({ url: database.url, schema, entities: [], migrations: ledgerMigrations }),
    },
    {
      provide: LedgerStore,
      inject: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA, EVENT_LOG],
      useFactory: async (dataSource: DataSource, schema: string, log: EventLog) => {
        const partitions = await log.partitionCount(Topics.ledgerCommands.name);
        return new LedgerStore(dataSource, schema, (userId) => partitionForKey(userId, partitions));
      },
    },
    OutboxRelay,
    LedgerDataSourceCloser,
  ],
  exports: [LEDGER_DATA_SOURCE, LEDGER_SCHEMA],
})
export class LedgerModule {}
