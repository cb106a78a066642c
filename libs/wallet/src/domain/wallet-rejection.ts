/** A command the wallet refuses, with the family's code (the domain keeps its own copy of the few it uses). */
export const WalletRejectCode = {
  ILLEGAL_CHARS: -1100,
  INVALID_VALUE: -1130,
  NO_SUCH_ORDER: -2013,
} as const;

export class WalletRejection extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'WalletRejection';
  }
}
