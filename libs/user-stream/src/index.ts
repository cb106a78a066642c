export * from './user-stream.module';
export * from './domain/account-stream';
export * from './domain/contract-orders-seen';
export * from './domain/contract-stream';
export * from './domain/streamed-balance';
export * from './domain/stream-frames';
export * from './domain/stream-state-hash';
export * from './streaming/account-streams';
export { USER_STREAM_PATH } from './sockets/user-stream-socket-server';
