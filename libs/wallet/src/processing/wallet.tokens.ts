export const WALLET_DATA_SOURCE = Symbol('WALLET_DATA_SOURCE');
/** The wallet's schema name: `wallet`, after DATABASE_SCHEMA_PREFIX. */
export const WALLET_SCHEMA = Symbol('WALLET_SCHEMA');
export const WALLET_GROUP = 'wallet';
