export * from './envelope/message';
export * from './markets/markets';
export * from './markets/markets.schema';
export * from './topics';
