/**
 * A business rejection decided by the ledger, with the family's code. The domain keeps its own
 * copy of the few codes it uses, so it depends on no platform module.
 */
export const RejectCode = {
  INVALID_VALUE: -1130,
  INSUFFICIENT_BALANCE: -1131,
  REJECTED_API_KEY: -2015,
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
