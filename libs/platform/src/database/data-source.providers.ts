import { Inject, Injectable, type InjectionToken, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * A module's TypeORM data source under `token`, opened by `open` from the injected dependencies
 * and destroyed when the application shuts down (after consumers have stopped).
 */
export function dataSourceProviders(token: symbol, inject: InjectionToken[], open: (...deps: never[]) => Promise<DataSource>): Provider[] {
  @Injectable()
  class DataSourceCloser implements OnApplicationShutdown {
    constructor(@Inject(token) private readonly dataSource: DataSource) {}

    async onApplicationShutdown(): Promise<void> {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    }
  }
  return [{ provide: token, inject, useFactory: open }, DataSourceCloser];
}
