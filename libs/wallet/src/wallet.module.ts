import { Module } from '@nestjs/common';
import {
  CONFIG,
  type Config,
  DATABASE,
  dataSourceProviders,
  LOGGER,
  type Logger,
  openDataSource,
  type RunningDatabase,
  schemaName,
} from '@exchange/platform';
import { CHAIN_ADAPTER } from './chain/chain-adapter.port';
import { SimulatedChain } from './chain/simulated-chain';
import { CreateWalletTables1767484800000 } from './migrations/1767484800000-create-wallet-tables';
import { ExpireWalletProcessedCommands1767571200001 } from './migrations/1767571200001-expire-processed-commands';
import { WalletCommandProcessor } from './processing/wallet-command.processor';
import { WalletOutboxRelay } from './processing/wallet-outbox-relay';
import { WALLET_DATA_SOURCE, WALLET_SCHEMA } from './processing/wallet.tokens';

export const walletMigrations = [CreateWalletTables1767484800000, ExpireWalletProcessedCommands1767571200001];

/** Deposits, withdrawals, address books and the chain adapter: a fold over wallet.commands. */
@Module({
  controllers: [WalletCommandProcessor],
  providers: [
    { provide: WALLET_SCHEMA, inject: [CONFIG], useFactory: (config: Config) => schemaName(config, 'wallet') },
    ...dataSourceProviders(WALLET_DATA_SOURCE, [DATABASE, WALLET_SCHEMA], (database: RunningDatabase, schema: string) =>
      openDataSource({ url: database.url, schema, entities: [], migrations: walletMigrations }),
    ),
    // The simulated chain is the default; a real chain integration provides CHAIN_ADAPTER instead.
    { provide: CHAIN_ADAPTER, inject: [LOGGER], useFactory: (logger: Logger) => new SimulatedChain(logger) },
    WalletOutboxRelay,
  ],
  exports: [WALLET_DATA_SOURCE, WALLET_SCHEMA],
})
export class WalletModule {}
