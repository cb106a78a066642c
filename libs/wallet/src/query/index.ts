// The wallet's read side for other services: queries of the tables the wallet's projection
// writes (persistence/wallet-projection.ts, schema in migrations/). Nothing else of the wallet is
// reachable from here, and nothing else of the wallet may be imported by other services.
export * from './wallet-query.providers';
export * from './wallet-reader';
