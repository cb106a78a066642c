export * from './account-stream';
export * from './execution-report';
export * from './stream-frames';
export * from './keepalive-policy';
