import type { Provider } from '@nestjs/common';
import { readOnlySchemaProviders, type SchemaQueries } from '@exchange/platform';
import { ContractsReader } from './contracts-reader';
import { LedgerReader } from './ledger-reader';
import { OrdersReader } from './orders-reader';
import { StreamStartReader } from './stream-start-reader';

/**
 * The ledger's readers for a module of another service, on one read-only source of the ledger's
 * schema (`source` names it for the readiness probe). Every reader's statement goes through the
 * one SchemaQueries made here.
 */
export function ledgerQueryProviders(source: string): Provider[] {
  const tables = Symbol(source);
  return [
    ...readOnlySchemaProviders(tables, 'ledger'),
    { provide: LedgerReader, inject: [tables], useFactory: (db: SchemaQueries) => new LedgerReader(db) },
    { provide: ContractsReader, inject: [tables], useFactory: (db: SchemaQueries) => new ContractsReader(db) },
    { provide: OrdersReader, inject: [tables], useFactory: (db: SchemaQueries) => new OrdersReader(db) },
    { provide: StreamStartReader, inject: [tables], useFactory: (db: SchemaQueries) => new StreamStartReader(db) },
  ];
}
