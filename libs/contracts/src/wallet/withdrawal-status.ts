/** The spec's withdrawal statuses (section 3): code → name. */
export const WithdrawalStatus = {
  BROKER_AUDITING: 1,
  BROKER_REJECT: 2,
  AUDITING: 3,
  AUDIT_REJECT: 4,
  PROCESSING: 5,
  SUCCESS: 6,
  FAILURE: 7,
  BLOCK_MINING: 8,
} as const;

export type WithdrawalStatusCode = (typeof WithdrawalStatus)[keyof typeof WithdrawalStatus];

export const withdrawalStatusNames: Record<WithdrawalStatusCode, string> = {
  1: 'BROKER_AUDITING_STATUS',
  2: 'BROKER_REJECT_STATUS',
  3: 'AUDITING_STATUS',
  4: 'AUDIT_REJECT_STATUS',
  5: 'PROCESSING_STATUS',
  6: 'WITHDRAWAL_SUCCESS_STATUS',
  7: 'WITHDRAWAL_FAILURE_STATUS',
  8: 'BLOCK_MINING_STATUS',
};

/** Final statuses: the hold was settled (6) or released (2, 4, 7). */
export const finalWithdrawalStatuses: ReadonlySet<WithdrawalStatusCode> = new Set([2, 4, 6, 7]);
