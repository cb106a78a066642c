import type { Provider } from '@nestjs/common';
import { gatedQueries, type ReadGate, readOnlySchemaProviders, type SchemaQueries } from '@exchange/platform';
import { ContractsReader } from './contracts-reader';
import { LedgerReader } from './ledger-reader';
import { OrdersReader } from './orders-reader';
import { StreamStartReader } from './stream-start-reader';

/**
 * The ledger's readers for a module of another service, on one read-only source of the ledger's
 * schema (`source` names it for the readiness probe). Every reader's statement goes through the
 * one SchemaQueries made here; with `readGate` (a token of a ReadGate), each first waits for it:
 * the ledger's tables are a projection of ledger.events, and a read after a reply must reflect it.
 */
export function ledgerQueryProviders(source: string, readGate?: symbol): Provider[] {
  const schema = Symbol(source);
  const tables = readGate ? Symbol(`${source} (gated)`) : schema;
  const gated: Provider[] = readGate
    ? [
        {
          provide: tables,
          inject: [schema, readGate],
          useFactory: (db: SchemaQueries, gate: ReadGate) => gatedQueries(db, gate),
        },
      ]
    : [];
  return [
    ...readOnlySchemaProviders(schema, 'ledger'),
    ...gated,
    { provide: LedgerReader, inject: [tables], useFactory: (db: SchemaQueries) => new LedgerReader(db) },
    { provide: ContractsReader, inject: [tables], useFactory: (db: SchemaQueries) => new ContractsReader(db) },
    { provide: OrdersReader, inject: [tables], useFactory: (db: SchemaQueries) => new OrdersReader(db) },
    { provide: StreamStartReader, inject: [tables], useFactory: (db: SchemaQueries) => new StreamStartReader(db) },
  ];
}
