import { Module } from '@nestjs/common';
import { LEDGER_PROJECTION_GROUP, type Markets, Topics } from '@exchange/contracts';
import { type EventLog, fencedDataSource, OffsetFence } from '@exchange/messaging';
import {
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  DATABASE,
  dataSourceProviders,
  EVENT_LOG,
  IdGenerator,
  LISTEN_KEYS,
  type ListenKeyStore,
  MARKETS,
  openDataSource,
  openSeenSignatures,
  RATE_LIMITER,
  type RateLimiter,
  type RunningDatabase,
  schemaName,
  SecretBox,
} from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { AccountCache } from './account/account-cache';
import { AccountController } from './account/account.controller';
import { AccountService } from './account/account.service';
import { LedgerReader } from './account/ledger-reader';
import { AdminController } from './admin/admin.controller';
import { AdminListingsController } from './admin/admin-listings.controller';
import { AdminService } from './admin/admin.service';
import { DeadLetterService } from './admin/dead-letters.service';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { OperatorAuditInterceptor } from './admin/operator-audit.interceptor';
import { ApiKeyDirectory } from './auth/api-key-directory';
import { PrivateEndpoints } from './auth/private-endpoint';
import { ReplayGuard } from './auth/replay-guard';
import { SignedRequestAuthenticator } from './auth/signed-request-authenticator';
import { LedgerClient } from './ledger-client/ledger-client';
import { OrderController } from './orders/order.controller';
import { OrderService } from './orders/order.service';
import { OrdersReader } from './orders/orders-reader';
import { PendingReplies } from './replies/pending-replies';
import { UserDataStreamController } from './user-data-stream/user-data-stream.controller';
import { UserDataStreamService } from './user-data-stream/user-data-stream.service';
import { WalletAdminService } from './wallet/wallet-admin.service';
import { WalletClient } from './wallet/wallet-client';
import { WalletController } from './wallet/wallet.controller';
import { WalletReader } from './wallet/wallet-reader';
import { WalletService } from './wallet/wallet.service';

const LEDGER_READ_SOURCE = Symbol('LEDGER_READ_SOURCE');
/** The same, each query waiting for the ledger's projection to pass what was journaled when it arrived (read-your-writes). */
const LEDGER_READS = Symbol('LEDGER_READS');
const WALLET_READ_SOURCE = Symbol('WALLET_READ_SOURCE');

/** Signed private REST and the operator API: validation, signatures, rate limits, error mapping. */
@Module({
  controllers: [AccountController, AdminController, AdminListingsController, OrderController, UserDataStreamController, WalletController],
  providers: [
    PendingReplies,
    LedgerClient,
    AdminTokenGuard,
    OperatorAuditInterceptor,
    ...dataSourceProviders(LEDGER_READ_SOURCE, [DATABASE, CONFIG], (database: RunningDatabase, config: Config) =>
      openDataSource({ url: database.url, schema: schemaName(config, 'ledger'), entities: [], migrations: [], readOnly: true }),
    ),
    {
      provide: LEDGER_READS,
      inject: [LEDGER_READ_SOURCE, EVENT_LOG, CONFIG],
      useFactory: (ds: DataSource, log: EventLog, config: Config) =>
        fencedDataSource(ds, new OffsetFence(log, { groupId: LEDGER_PROJECTION_GROUP, topic: Topics.ledgerEvents.name, timeoutMs: config.READ_AFTER_WRITE_TIMEOUT_MS })),
    },
    { provide: LedgerReader, inject: [LEDGER_READS, CONFIG], useFactory: (ds: DataSource, config: Config) => new LedgerReader(ds, schemaName(config, 'ledger')) },
    { provide: OrdersReader, inject: [LEDGER_READS, CONFIG], useFactory: (ds: DataSource, config: Config) => new OrdersReader(ds, schemaName(config, 'ledger')) },
    {
      provide: OrderService,
      inject: [LedgerClient, OrdersReader, MARKETS, IdGenerator, CLOCK, CONFIG],
      useFactory: (l: LedgerClient, r: OrdersReader, m: Markets, ids: IdGenerator, clock: Clock, config: Config) => new OrderService(l, r, m, ids, clock, config),
    },
    {
      provide: SecretBox,
      inject: [CONFIG],
      useFactory: (config: Config) => {
        if (!config.SECRET_ENCRYPTION_KEY) throw new Error('api-gateway needs SECRET_ENCRYPTION_KEY');
        return new SecretBox(config.SECRET_ENCRYPTION_KEY, (config.SECRET_ENCRYPTION_PREVIOUS_KEYS ?? '').split(',').filter(Boolean));
      },
    },
    {
      provide: ApiKeyDirectory,
      inject: [LedgerReader, SecretBox, LedgerClient, CONFIG],
      useFactory: (reader: LedgerReader, box: SecretBox, ledger: LedgerClient, config: Config) => {
        const directory = new ApiKeyDirectory(reader, box, config.GATEWAY_CACHE_MAX_ENTRIES);
        ledger.onEvent((event) => directory.apply(event));
        return directory;
      },
    },
    {
      provide: AccountCache,
      inject: [LedgerReader, LedgerClient, CONFIG],
      useFactory: (reader: LedgerReader, ledger: LedgerClient, config: Config) => {
        const cache = new AccountCache(reader, config.GATEWAY_CACHE_MAX_ENTRIES);
        ledger.onEvent((event) => cache.apply(event));
        return cache;
      },
    },
    { provide: IdGenerator, inject: [CONFIG, CLOCK], useFactory: (config: Config, clock: Clock) => new IdGenerator(config.INSTANCE_ID, clock) },
    { provide: ReplayGuard, inject: [CONFIG], useFactory: (config: Config) => new ReplayGuard(openSeenSignatures(config)) },
    {
      provide: SignedRequestAuthenticator,
      inject: [ApiKeyDirectory, CLOCK, ReplayGuard],
      useFactory: (d: ApiKeyDirectory, clock: Clock, replays: ReplayGuard) => new SignedRequestAuthenticator(d, clock, replays),
    },
    { provide: PrivateEndpoints, inject: [SignedRequestAuthenticator, RATE_LIMITER], useFactory: (a: SignedRequestAuthenticator, l: RateLimiter) => new PrivateEndpoints(a, l) },
    {
      provide: AccountService,
      inject: [LedgerReader, AccountCache, LedgerClient, MARKETS, IdGenerator, CLOCK],
      useFactory: (r: LedgerReader, c: AccountCache, l: LedgerClient, m: Markets, ids: IdGenerator, clock: Clock) => new AccountService(r, c, l, m, ids, clock),
    },
    { provide: UserDataStreamService, inject: [LISTEN_KEYS], useFactory: (store: ListenKeyStore) => new UserDataStreamService(store) },
    {
      provide: AdminService,
      inject: [LedgerReader, LedgerClient, AccountService, MARKETS, IdGenerator, SecretBox, CLOCK, EVENT_LOG, WalletAdminService],
      useFactory: (r: LedgerReader, l: LedgerClient, a: AccountService, m: Markets, ids: IdGenerator, box: SecretBox, clock: Clock, log: EventLog, w: WalletAdminService) =>
        new AdminService(r, l, a, m, ids, box, clock, log, w),
    },
    WalletClient,
    // The wallet's read models; the wallet service creates and migrates the schema, the gateway only reads it.
    ...dataSourceProviders(WALLET_READ_SOURCE, [DATABASE, CONFIG], (database: RunningDatabase, config: Config) =>
      openDataSource({ url: database.url, schema: schemaName(config, 'wallet'), entities: [], migrations: [], readOnly: true }),
    ),
    { provide: WalletReader, inject: [WALLET_READ_SOURCE, CONFIG], useFactory: (ds: DataSource, config: Config) => new WalletReader(ds, schemaName(config, 'wallet')) },
    {
      provide: WalletService,
      inject: [LedgerClient, WalletClient, WalletReader, MARKETS, IdGenerator, CLOCK],
      useFactory: (l: LedgerClient, w: WalletClient, r: WalletReader, m: Markets, ids: IdGenerator, clock: Clock) => new WalletService(l, w, r, m, ids, clock),
    },
    { provide: DeadLetterService, inject: [EVENT_LOG], useFactory: (log: EventLog) => new DeadLetterService(log) },
    {
      provide: WalletAdminService,
      inject: [LedgerReader, WalletReader, WalletClient, MARKETS, IdGenerator, CLOCK],
      useFactory: (lr: LedgerReader, r: WalletReader, w: WalletClient, m: Markets, ids: IdGenerator, clock: Clock) => new WalletAdminService(lr, r, w, m, ids, clock),
    },
  ],
  exports: [AdminService],
})
export class ApiGatewayModule {}
