export * from './exchange-modules';
