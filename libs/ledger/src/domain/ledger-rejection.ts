/**
 * A business rejection decided by the ledger, with the family's code. The domain keeps its own
 * copy of the few codes it uses, so it depends on no platform module.
 */
export const RejectCode = {
  INTERNAL: -1001,
  ILLEGAL_CHARS: -1100,
  MANDATORY_PARAMETER: -1102,
  INVALID_SYMBOL: -1121,
  INVALID_VALUE: -1130,
  INSUFFICIENT_BALANCE: -1131,
  ORDER_FILLED: -1139,
  DUPLICATE_CLIENT_ORDER_ID: -1141,
  ORDER_CANCELED: -1142,
  NEW_ORDER_REJECTED: -2010,
  CANCEL_REJECTED: -2011,
  NO_SUCH_ORDER: -2013,
  REJECTED_API_KEY: -2015,
  CLOSE_EXCEEDS_AVAILABLE: -2022,
} as const;

export class LedgerRejection extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerRejection';
  }
}
