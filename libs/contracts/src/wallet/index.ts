export * from './chain-addresses';
export * from './wallet-commands.v1';
export * from './wallet-events';
export * from './wallet-records';
export * from './wallet-records.schema';
export * from './withdrawal-status';
