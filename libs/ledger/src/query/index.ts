// The ledger's read side for other services: queries of the tables the ledger's projection
// writes (persistence/ledger-projection.ts, schema in migrations/). Nothing else of the ledger is
// reachable from here, and nothing else of the ledger may be imported by other services.
export * from './contracts-reader';
export * from './ledger-query.providers';
export * from './ledger-reader';
export * from './orders-reader';
export * from './stream-start-reader';
