import { ApiGatewayModule } from '@exchange/api-gateway';
import type { ServiceModule } from '@exchange/bootstrap';
import { LedgerModule } from '@exchange/ledger';
import { MarketDataModule } from '@exchange/market-data';
import { MatchingEngineModule } from '@exchange/matching-engine';
import { UserStreamModule } from '@exchange/user-stream';
import { WalletModule } from '@exchange/wallet';

/** Every service of the exchange, for the one-process embedded default. */
export const exchangeModules: ServiceModule[] = [
  ApiGatewayModule,
  LedgerModule,
  MatchingEngineModule,
  MarketDataModule,
  UserStreamModule,
  WalletModule,
];
