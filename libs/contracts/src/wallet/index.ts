export * from './chain-addresses';
export * from './wallet-commands.v1';
export * from './wallet-events';
export * from './wallet-records';
export * from './withdrawal-status';
