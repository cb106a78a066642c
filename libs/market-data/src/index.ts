export * from './market-data.module';
export * from './public/broker-info';
export * from './public/rate-limit-entries';
export * from './public/general.schemas';
export * from './http/public-route-docs';
