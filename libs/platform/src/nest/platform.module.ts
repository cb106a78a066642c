import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Markets } from '@exchange/contracts';
import type { Logger } from 'pino';
import type { Config } from '../config/config.schema';
import { HealthModule } from '../health/health.module';
import { Metrics } from '../metrics/metrics';
import type { Clock } from '../time/clock';
import { CLOCK, CONFIG, LOGGER, MARKETS } from './tokens';

export interface PlatformDependencies {
  config: Config;
  markets: Markets;
  logger: Logger;
  clock: Clock;
  metrics: Metrics;
}

/** What an app's bootstrap hands to every service module: configuration, markets, logger, clock, metrics. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(deps: PlatformDependencies): DynamicModule {
    return {
      module: PlatformModule,
      imports: [HealthModule],
      providers: [
        { provide: CONFIG, useValue: deps.config },
        { provide: MARKETS, useValue: deps.markets },
        { provide: LOGGER, useValue: deps.logger },
        { provide: CLOCK, useValue: deps.clock },
        { provide: Metrics, useValue: deps.metrics },
      ],
      exports: [CONFIG, MARKETS, LOGGER, CLOCK, Metrics, HealthModule],
    };
  }
}
