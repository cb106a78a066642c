import type { Provider } from '@nestjs/common';
import { readOnlySchemaProviders, type SchemaQueries } from '@exchange/platform';
import { WalletReader } from './wallet-reader';

/** The wallet's reader for a module of another service, on a read-only source of the wallet's schema (`source` names it for the readiness probe). */
export function walletQueryProviders(source: string): Provider[] {
  const tables = Symbol(source);
  return [
    ...readOnlySchemaProviders(tables, 'wallet'),
    { provide: WalletReader, inject: [tables], useFactory: (db: SchemaQueries) => new WalletReader(db) },
  ];
}
