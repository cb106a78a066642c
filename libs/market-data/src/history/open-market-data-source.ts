import { openDataSource, schemaName } from '@exchange/platform';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { CreateMarketDataTables1767398400000 } from './migrations/1767398400000-create-market-data-tables';

export const marketDataMigrations = [CreateMarketDataTables1767398400000];

/** The live schema market data's history is kept in, after the configured prefix. */
export function marketDataSchema(config: { DATABASE_SCHEMA_PREFIX?: string }): string {
  return schemaName(config, 'market_data');
}

/**
 * Market data scales out: replicas start together and would race to run the same migrations, so
 * they take turns under a PostgreSQL advisory lock named after the schema.
 */
export async function openMarketDataSource(url: string, schema: string): Promise<DataSource> {
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    return await openDataSource({ url, schema, entities: [], migrations: marketDataMigrations });
  } finally {
    await lock.end();
  }
}
