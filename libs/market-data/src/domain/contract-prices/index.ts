export * from './contract-price-fold';
export * from './contract-price-rules';
export * from './contract-price-state-hash';
export * from './index-price-source';
export * from './contract-price-board';
export * from './price-inputs';
