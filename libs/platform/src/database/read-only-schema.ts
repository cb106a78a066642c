import type { Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Config } from '../config/config.schema';
import { CONFIG, DATABASE } from '../nest/tokens';
import { dataSourceProviders } from './data-source.providers';
import type { RunningDatabase } from './embedded-postgres';
import { openDataSource, schemaName } from './open-data-source';

/** Statements on a schema another service writes: its quoted name to prefix tables with, and one way to run them. */
export interface SchemaQueries {
  /** The schema's name, quoted for SQL. */
  readonly s: string;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

/** What a read waits for before it runs (e.g. a projection passing what its topic held when the read came). */
export type ReadGate = () => Promise<void>;

/** The same statements, each run once `gate` lets it through. */
export function gatedQueries(queries: SchemaQueries, gate: ReadGate): SchemaQueries {
  return {
    s: queries.s,
    query: async (sql, params) => {
      await gate();
      return queries.query(sql, params);
    },
  };
}

export function schemaQueries(dataSource: DataSource, schema: string): SchemaQueries {
  return { s: `"${schema}"`, query: (sql, params) => dataSource.query(sql, params) };
}

/**
 * `service`'s schema, read-only, as SchemaQueries under `token`: the data source behind it is
 * opened (creating and migrating nothing: the owner does that), checked by the readiness probe
 * under `token`'s description, and closed on shutdown.
 */
export function readOnlySchemaProviders(token: symbol, service: string): Provider[] {
  const source = Symbol(token.description);
  return [
    ...dataSourceProviders(source, [DATABASE, CONFIG], (database: RunningDatabase, config: Config) =>
      openDataSource({
        url: database.url,
        schema: schemaName(config, service),
        entities: [],
        migrations: [],
        readOnly: true,
      }),
    ),
    {
      provide: token,
      inject: [source, CONFIG],
      useFactory: (dataSource: DataSource, config: Config) => schemaQueries(dataSource, schemaName(config, service)),
    },
  ];
}
