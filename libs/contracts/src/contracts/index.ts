export * from './contract-commands.v1';
export * from './contract-events';
