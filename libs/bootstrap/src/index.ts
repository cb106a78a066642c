export * from './infrastructure';
export * from './infrastructure.module';
export * from './run-service';
export * from './start-app';
