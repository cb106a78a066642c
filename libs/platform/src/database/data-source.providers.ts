import { Inject, Injectable, type InjectionToken, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Readiness } from '../health/readiness';

/**
 * A module's TypeORM data source under `token`, opened by `open` from the injected dependencies,
 * checked by the readiness probe, and destroyed when the application shuts down (after consumers
 * have stopped).
 */
export function dataSourceProviders(
  token: symbol,
  inject: InjectionToken[],
  open: (...deps: never[]) => Promise<DataSource>,
): Provider[] {
  @Injectable()
  class DataSourceCloser implements OnApplicationShutdown {
    constructor(
      @Inject(token) private readonly dataSource: DataSource,
      readiness: Readiness,
    ) {
      readiness.register(`database:${token.description ?? 'data source'}`, () => dataSourceAnswers(dataSource));
    }

    async onApplicationShutdown(): Promise<void> {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    }
  }
  return [{ provide: token, inject, useFactory: open }, DataSourceCloser];
}

/** A readiness check that the data source answers a trivial query. */
export async function dataSourceAnswers(dataSource: DataSource): Promise<boolean> {
  const rows: unknown[] = await dataSource.query('SELECT 1');
  return rows.length === 1;
}
