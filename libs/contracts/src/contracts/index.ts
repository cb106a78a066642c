export * from './contract-commands.v1';
export * from './contract-events';
export * from './contract-risk-commands.v1';
export * from './contract-risk-events';
export * from './contract-journal';
export * from './contract-price-messages.v1';
export * from './contract-events.schema';
