export * from './create-exchange-app';
export * from './exchange.module';
