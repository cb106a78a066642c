import 'reflect-metadata';
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { Markets } from '@exchange/contracts';
import { loadConfig, type RunMode } from '../config/load-config';
import { createHttpApp } from '../http/create-http-app';
import { createLogger } from '../logging/logger';
import { systemClock } from '../time/clock';
import { PlatformModule } from './platform.module';

export interface ServiceAppOptions {
  /** The service's name, as logs, metrics and deploy/ call it. */
  service: string;
  module: Type<unknown> | DynamicModule;
  mode?: RunMode;
}

/**
 * The bootstrap every app's main.ts calls: validated configuration, JSON logs, the service's Nest
 * module on Fastify, and a graceful stop on SIGTERM (Nest's shutdown hooks stop consumers first).
 */
export async function runServiceApp(options: ServiceAppOptions): Promise<void> {
  const config = loadConfig(process.env, options.mode ?? 'distributed');
  const logger = createLogger(options.service, config.LOG_LEVEL);
  const markets = Markets.fromFile(config.MARKETS_FILE);

  @Module({ imports: [PlatformModule.forRoot({ config, markets, logger, clock: systemClock }), options.module] })
  class ServiceRootModule {}

  const app = await createHttpApp(ServiceRootModule, { logger });
  await app.listen(config.PORT, config.HOST);
  logger.info({ port: config.PORT }, `${options.service} listening`);
}

/** The one way a main.ts fails: log the reason as JSON and exit non-zero so the orchestrator restarts it. */
export function exitOnFailure(service: string): (error: unknown) => void {
  return (error: unknown) => {
    createLogger(service).fatal({ err: error }, 'failed to start');
    process.exit(1);
  };
}
