export * from './matching-engine.module';
export * from './matching-engine.settings';
export * from './books/symbol-engines';
export * from './domain';
