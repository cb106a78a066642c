export * from './wallet.module';
