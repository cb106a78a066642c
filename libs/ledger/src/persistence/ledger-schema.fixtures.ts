import { openDataSource } from '@exchange/platform';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ledgerMigrations } from '../ledger.module';

/** A fresh schema with the ledger's tables for the describe block it is called in, dropped after it. */
export function ledgerSchemaForSpecs(prefix: string): { schema: string; dataSource: () => DataSource } {
  let dataSource: DataSource | undefined;
  const schema = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  beforeAll(async () => {
    dataSource = await openDataSource({
      url: process.env.DATABASE_URL!,
      schema,
      entities: [],
      migrations: ledgerMigrations,
    });
  });
  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource?.destroy();
  });
  return { schema, dataSource: () => dataSource! };
}
