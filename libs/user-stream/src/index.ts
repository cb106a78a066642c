export * from './user-stream.module';
