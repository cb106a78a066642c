export * from './domain/decide';
export * from './domain/wallet-effects';
export * from './domain/wallet-state';
export * from './domain/withdrawal-machine';
export * from './wallet.module';
