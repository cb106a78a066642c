import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DATABASE, EVENT_LOG, LISTEN_KEYS, PlatformModule, RATE_LIMITER } from '@exchange/platform';
import type { Infrastructure } from './infrastructure';

/** Hands the opened adapters to every service module through the platform's tokens. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(infrastructure: Infrastructure): DynamicModule {
    const { config, markets, logger, clock, metrics } = infrastructure;
    return {
      module: InfrastructureModule,
      imports: [PlatformModule.forRoot({ config, markets, logger, clock, metrics })],
      providers: [
        { provide: EVENT_LOG, useValue: infrastructure.eventLog },
        { provide: DATABASE, useValue: infrastructure.database },
        { provide: RATE_LIMITER, useValue: infrastructure.rateLimiter },
        { provide: LISTEN_KEYS, useValue: infrastructure.listenKeys },
      ],
      exports: [PlatformModule, EVENT_LOG, DATABASE, RATE_LIMITER, LISTEN_KEYS],
    };
  }
}
