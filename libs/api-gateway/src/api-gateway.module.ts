import { Module } from '@nestjs/common';
import { LEDGER_PROJECTION_GROUP, type Markets, Topics } from '@exchange/contracts';
import { type EventLog, projectionReadGateProvider } from '@exchange/messaging';
import {
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  EVENT_LOG,
  IdGenerator,
  LISTEN_KEYS,
  type ListenKeyStore,
  MARKETS,
  openSeenSignatures,
  RATE_LIMITER,
  type RateLimiter,
  SecretBox,
} from '@exchange/platform';
import { ContractsReader, LedgerReader, ledgerQueryProviders, OrdersReader } from '@exchange/ledger-query';
import { WalletReader, walletQueryProviders } from '@exchange/wallet-query';
import { AccountCache } from './account/account-cache';
import { AccountController } from './account/account.controller';
import { AccountService } from './account/account.service';
import { AdminController } from './admin/admin.controller';
import { AdminListingsController } from './admin/admin-listings.controller';
import { AdminContractsController } from './admin/admin-contracts.controller';
import { AdminInsuranceController } from './admin/admin-insurance.controller';
import { AdminPricesController } from './admin/admin-prices.controller';
import { AdminService } from './admin/admin.service';
import { DeadLetterService } from './admin/dead-letters.service';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { OperatorAuditInterceptor } from './admin/operator-audit.interceptor';
import { ApiKeyDirectory } from './auth/api-key-directory';
import { PrivateEndpoints } from './auth/private-endpoint';
import { ReplayGuard } from './auth/replay-guard';
import { SignedRequestAuthenticator } from './auth/signed-request-authenticator';
import { LedgerClient } from './ledger-client/ledger-client';
import { ContractController } from './contracts/contract.controller';
import { ContractPublicController } from './contracts/contract-public.controller';
import { ContractService } from './contracts/contract.service';
import { OrderController } from './orders/order.controller';
import { OrderService } from './orders/order.service';
import { PendingReplies } from './replies/pending-replies';
import { UserDataStreamController } from './user-data-stream/user-data-stream.controller';
import { UserDataStreamService } from './user-data-stream/user-data-stream.service';
import { WalletAdminService } from './wallet/wallet-admin.service';
import { WalletClient } from './wallet/wallet-client';
import { WalletController } from './wallet/wallet.controller';
import { WalletService } from './wallet/wallet.service';

/** The ledger's readers wait for its projection to pass what was journaled when a read came (read-your-writes). */
const LEDGER_READ_GATE = Symbol('LEDGER_READ_GATE');

/** Signed private REST and the operator API: validation, signatures, rate limits, error mapping. */
@Module({
  controllers: [
    AccountController,
    AdminController,
    AdminInsuranceController,
    AdminListingsController,
    AdminContractsController,
    AdminPricesController,
    OrderController,
    ContractController,
    ContractPublicController,
    UserDataStreamController,
    WalletController,
  ],
  providers: [
    PendingReplies,
    LedgerClient,
    AdminTokenGuard,
    OperatorAuditInterceptor,
    // The ledger's and the wallet's read models: their services create, migrate and write the schemas; the gateway only reads them.
    projectionReadGateProvider(LEDGER_READ_GATE, LEDGER_PROJECTION_GROUP, Topics.ledgerEvents.name),
    ...ledgerQueryProviders('LEDGER_READ_SOURCE', LEDGER_READ_GATE),
    ...walletQueryProviders('WALLET_READ_SOURCE'),
    {
      provide: OrderService,
      inject: [LedgerClient, OrdersReader, MARKETS, IdGenerator, CLOCK, CONFIG],
      useFactory: (l: LedgerClient, r: OrdersReader, m: Markets, ids: IdGenerator, clock: Clock, config: Config) =>
        new OrderService(l, r, m, ids, clock, config),
    },
    {
      provide: ContractService,
      inject: [LedgerClient, ContractsReader, LedgerReader, MARKETS, IdGenerator, CLOCK],
      useFactory: (l: LedgerClient, r: ContractsReader, a: LedgerReader, m: Markets, ids: IdGenerator, clock: Clock) =>
        new ContractService(l, r, a, m, ids, clock),
    },
    {
      provide: SecretBox,
      inject: [CONFIG],
      useFactory: (config: Config) => {
        if (!config.SECRET_ENCRYPTION_KEY) throw new Error('api-gateway needs SECRET_ENCRYPTION_KEY');
        return new SecretBox(
          config.SECRET_ENCRYPTION_KEY,
          (config.SECRET_ENCRYPTION_PREVIOUS_KEYS ?? '').split(',').filter(Boolean),
        );
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
    {
      provide: IdGenerator,
      inject: [CONFIG, CLOCK],
      useFactory: (config: Config, clock: Clock) => new IdGenerator(config.INSTANCE_ID, clock),
    },
    {
      provide: ReplayGuard,
      inject: [CONFIG],
      useFactory: (config: Config) => new ReplayGuard(openSeenSignatures(config)),
    },
    {
      provide: SignedRequestAuthenticator,
      inject: [ApiKeyDirectory, CLOCK, ReplayGuard],
      useFactory: (d: ApiKeyDirectory, clock: Clock, replays: ReplayGuard) =>
        new SignedRequestAuthenticator(d, clock, replays),
    },
    {
      provide: PrivateEndpoints,
      inject: [SignedRequestAuthenticator, RATE_LIMITER],
      useFactory: (a: SignedRequestAuthenticator, l: RateLimiter) => new PrivateEndpoints(a, l),
    },
    {
      provide: AccountService,
      inject: [LedgerReader, AccountCache, LedgerClient, MARKETS, IdGenerator, CLOCK],
      useFactory: (r: LedgerReader, c: AccountCache, l: LedgerClient, m: Markets, ids: IdGenerator, clock: Clock) =>
        new AccountService(r, c, l, m, ids, clock),
    },
    {
      provide: UserDataStreamService,
      inject: [LISTEN_KEYS],
      useFactory: (store: ListenKeyStore) => new UserDataStreamService(store),
    },
    {
      provide: AdminService,
      inject: [
        LedgerReader,
        LedgerClient,
        AccountService,
        MARKETS,
        IdGenerator,
        SecretBox,
        CLOCK,
        EVENT_LOG,
        WalletAdminService,
      ],
      useFactory: (
        r: LedgerReader,
        l: LedgerClient,
        a: AccountService,
        m: Markets,
        ids: IdGenerator,
        box: SecretBox,
        clock: Clock,
        log: EventLog,
        w: WalletAdminService,
      ) => new AdminService(r, l, a, m, ids, box, clock, log, w),
    },
    WalletClient,
    {
      provide: WalletService,
      inject: [LedgerClient, WalletClient, WalletReader, MARKETS, IdGenerator, CLOCK],
      useFactory: (l: LedgerClient, w: WalletClient, r: WalletReader, m: Markets, ids: IdGenerator, clock: Clock) =>
        new WalletService(l, w, r, m, ids, clock),
    },
    { provide: DeadLetterService, inject: [EVENT_LOG], useFactory: (log: EventLog) => new DeadLetterService(log) },
    {
      provide: WalletAdminService,
      inject: [LedgerReader, WalletReader, WalletClient, MARKETS, IdGenerator, CLOCK],
      useFactory: (lr: LedgerReader, r: WalletReader, w: WalletClient, m: Markets, ids: IdGenerator, clock: Clock) =>
        new WalletAdminService(lr, r, w, m, ids, clock),
    },
  ],
  exports: [AdminService],
})
export class ApiGatewayModule {}
