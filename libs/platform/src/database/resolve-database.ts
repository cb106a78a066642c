import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/config.schema';
import { type RunningDatabase, startEmbeddedPostgres } from './embedded-postgres';

/** DATABASE_URL when set; otherwise an embedded PostgreSQL under DATA_DIR on EMBEDDED_PG_PORT. */
export async function resolveDatabase(config: Config, logger: Logger): Promise<RunningDatabase> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  return startEmbeddedPostgres({
    dir: join(config.DATA_DIR, 'postgres'),
    port: config.EMBEDDED_PG_PORT,
    database: 'exchange',
    logger,
  });
}
