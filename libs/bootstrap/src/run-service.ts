import 'reflect-metadata';
import { createLogger } from '@exchange/platform';
import { openInfrastructure } from './infrastructure';
import { type ServiceModule, startApp } from './start-app';

export interface RunServiceOptions {
  service: string;
  module: ServiceModule;
  needsDatabase: boolean;
}

/** A distributed-mode app's whole main.ts: one service, its adapters from the environment. */
export function runService(options: RunServiceOptions): void {
  openInfrastructure({ service: options.service, mode: 'distributed', needsDatabase: options.needsDatabase })
    .then((infrastructure) => startApp(infrastructure, [options.module]))
    .catch((error: unknown) => {
      createLogger(options.service).fatal({ err: error }, 'failed to start');
      process.exit(1);
    });
}
