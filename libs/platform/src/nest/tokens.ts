/** Injection tokens for what every service module receives from its app's bootstrap. */
export const CONFIG = Symbol('CONFIG');
export const MARKETS = Symbol('MARKETS');
export const LOGGER = Symbol('LOGGER');
export const CLOCK = Symbol('CLOCK');
export const EVENT_LOG = Symbol('EVENT_LOG');
export const DATABASE = Symbol('DATABASE');
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const LISTEN_KEYS = Symbol('LISTEN_KEYS');
