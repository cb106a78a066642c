import { Markets } from '@exchange/contracts';
import { type Clock, type Config, createHttpApp, type Logger } from '@exchange/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ExchangeModule } from './exchange.module';

export interface ExchangeAppOptions {
  config: Config;
  logger: Logger;
  clock: Clock;
}

/** Builds the embedded exchange (every service, one process) without listening yet. */
export async function createExchangeApp(options: ExchangeAppOptions): Promise<NestFastifyApplication> {
  const markets = Markets.fromFile(options.config.MARKETS_FILE);
  const module = ExchangeModule.register({ ...options, markets });
  return createHttpApp(module, { logger: options.logger });
}
