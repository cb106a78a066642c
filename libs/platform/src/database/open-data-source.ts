import { Client } from 'pg';
import { DataSource, type DataSourceOptions as TypeOrmOptions } from 'typeorm';

export interface DataSourceOptions {
  url: string;
  /** Each service keeps its tables in its own schema of the shared database. */
  schema: string;
  entities: NonNullable<TypeOrmOptions['entities']>;
  migrations: NonNullable<TypeOrmOptions['migrations']>;
  /** Another service owns the schema: read it as it is, create and migrate nothing. */
  readOnly?: boolean;
}

/**
 * A TypeORM data source on the service's schema, with its migrations applied. The schema is made
 * by migrations, never by `synchronize`, so what runs in production is what the tests ran.
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`database: invalid schema name ${options.schema}`);
  if (!options.readOnly) await createSchema(options.url, options.schema);
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
  });
  await dataSource.initialize();
  if (!options.readOnly) await dataSource.runMigrations();
  return dataSource;
}

async function createSchema(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}

/** A service's schema name, after the configured prefix. */
export function schemaName(config: { DATABASE_SCHEMA_PREFIX?: string }, service: string): string {
  return `${config.DATABASE_SCHEMA_PREFIX ?? ''}${service}`;
}
