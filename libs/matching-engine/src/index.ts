export * from './matching-engine.module';
export * from './domain';
