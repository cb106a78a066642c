export * from './envelope/message';
export * from './markets/markets';
export * from './markets/markets.schema';
export * from './topics';
export * from './ledger/balance-flow-types';
export * from './ledger/ledger-commands';
export * from './ledger/ledger-events';
export * from './orders';
