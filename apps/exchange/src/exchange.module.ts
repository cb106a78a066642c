import { type DynamicModule, Module } from '@nestjs/common';
import { MarketDataModule } from '@exchange/market-data';
import { PlatformModule, type PlatformDependencies } from '@exchange/platform';

/** Every service of the exchange in one Nest application: the embedded default. */
@Module({})
export class ExchangeModule {
  static register(deps: PlatformDependencies): DynamicModule {
    return {
      module: ExchangeModule,
      imports: [PlatformModule.forRoot(deps), MarketDataModule],
    };
  }
}
