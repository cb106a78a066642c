import { Markets } from '@exchange/contracts';
import { createEventLog, type EventLog } from '@exchange/messaging';
import { type Clock, type Config, createLogger, loadConfig, type Logger, resolveDatabase, type RunMode, type RunningDatabase, systemClock } from '@exchange/platform';

/** What an app opens before Nest starts, and closes last on the way out. */
export interface Infrastructure {
  service: string;
  config: Config;
  logger: Logger;
  markets: Markets;
  clock: Clock;
  eventLog: EventLog;
  /** Absent for services that keep no tables (matching-engine, user-stream, api-gateway). */
  database?: RunningDatabase;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  service: string;
  mode: RunMode;
  needsDatabase: boolean;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

export async function openInfrastructure(options: InfrastructureOptions): Promise<Infrastructure> {
  const config = loadConfig(options.env ?? process.env, options.mode);
  const logger = createLogger(options.service, config.LOG_LEVEL);
  const markets = Markets.fromFile(config.MARKETS_FILE);
  const database = options.needsDatabase ? await resolveDatabase(config, logger) : undefined;
  let eventLog: EventLog;
  try {
    eventLog = await createEventLog(config, logger);
  } catch (error) {
    await database?.stop();
    throw error;
  }
  return {
    service: options.service,
    config,
    logger,
    markets,
    clock: options.clock ?? systemClock,
    eventLog,
    database,
    close: async () => {
      await eventLog.close();
      await database?.stop();
    },
  };
}
