/**
 * The error codes of API-DECISIONS.md, with the HTTP status each one answers with.
 * Client libraries of the BHEx/Binance family map these numbers to exception classes,
 * so a code must never change meaning.
 */
export const ErrorCode = {
  UNKNOWN: -1000,
  INTERNAL: -1001,
  UNAUTHORIZED: -1002,
  TOO_MUCH_WEIGHT: -1003,
  TIMEOUT: -1007,
  TOO_MANY_ORDERS: -1015,
  SERVICE_UNAVAILABLE: -1016,
  UNSUPPORTED_OPERATION: -1020,
  INVALID_TIMESTAMP: -1021,
  INVALID_SIGNATURE: -1022,
  INVALID_RECV_WINDOW: -1024,
  RECV_WINDOW_TOO_LARGE: -1025,
  ILLEGAL_CHARS: -1100,
  DUPLICATE_PARAM: -1101,
  MANDATORY_PARAM_MISSING: -1102,
  ORDER_ID_MISSING: -1105,
  INVALID_TIME_IN_FORCE: -1115,
  INVALID_ORDER_TYPE: -1116,
  INVALID_SIDE: -1117,
  INVALID_INTERVAL: -1120,
  INVALID_SYMBOL: -1121,
  INVALID_LISTEN_KEY: -1125,
  INVALID_PARAM_COMBINATION: -1128,
  INVALID_PARAM_VALUE: -1130,
  INSUFFICIENT_BALANCE: -1131,
  PRICE_ABOVE_MAX: -1132,
  PRICE_BELOW_MIN: -1133,
  PRICE_NOT_TICK: -1134,
  QTY_ABOVE_MAX: -1135,
  QTY_BELOW_MIN: -1136,
  QTY_NOT_STEP: -1137,
  ORDER_ALREADY_FILLED: -1139,
  NOTIONAL_BELOW_MIN: -1140,
  DUPLICATE_CLIENT_ORDER_ID: -1141,
  ORDER_ALREADY_CANCELED: -1142,
  SYMBOL_NOT_TRADING: -1151,
  NEW_ORDER_REJECTED: -2010,
  CANCEL_REJECTED: -2011,
  NO_SUCH_ORDER: -2013,
  API_KEY_FORMAT_INVALID: -2014,
  REJECTED_API_KEY: -2015,
  START_AFTER_END: -4001,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

const statusByCode = new Map<number, number>([
  [ErrorCode.UNKNOWN, 500],
  [ErrorCode.INTERNAL, 500],
  [ErrorCode.UNAUTHORIZED, 401],
  [ErrorCode.TOO_MUCH_WEIGHT, 429],
  [ErrorCode.TIMEOUT, 504],
  [ErrorCode.TOO_MANY_ORDERS, 429],
  [ErrorCode.SERVICE_UNAVAILABLE, 503],
  [ErrorCode.UNSUPPORTED_OPERATION, 404],
  [ErrorCode.INVALID_SIGNATURE, 401],
  [ErrorCode.API_KEY_FORMAT_INVALID, 401],
  [ErrorCode.REJECTED_API_KEY, 401],
]);

/** Everything not listed above is a client mistake or a business rejection: 400. */
export function httpStatusOf(code: number): number {
  return statusByCode.get(code) ?? 400;
}
