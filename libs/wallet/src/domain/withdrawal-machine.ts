import {
  type WithdrawalRecord,
  WithdrawalStatus as S,
  type WithdrawalStatusCode,
  type WithdrawalTransition,
} from '@exchange/contracts';

/**
 * The withdrawal state machine (API-DECISIONS.md): these moves and no others. Broker audit (1)
 * → approved to platform audit (3) or rejected (2); platform audit → processing by the wallet (5)
 * or rejected (4); processing → mined (8) or failed (7); mined → success (6) or failed (7).
 */
export const withdrawalTransitions: ReadonlyMap<WithdrawalStatusCode, readonly WithdrawalStatusCode[]> = new Map([
  [S.BROKER_AUDITING, [S.BROKER_REJECT, S.AUDITING]],
  [S.AUDITING, [S.AUDIT_REJECT, S.PROCESSING]],
  [S.PROCESSING, [S.FAILURE, S.BLOCK_MINING]],
  [S.BLOCK_MINING, [S.SUCCESS, S.FAILURE]],
]);

/** A transfer to another account of this exchange never touches a chain: processing → success (5→6) is its only way out of 5. */
export const internalTransitions: ReadonlyMap<WithdrawalStatusCode, readonly WithdrawalStatusCode[]> = new Map([
  [S.BROKER_AUDITING, [S.BROKER_REJECT, S.AUDITING]],
  [S.AUDITING, [S.AUDIT_REJECT, S.PROCESSING]],
  [S.PROCESSING, [S.SUCCESS]],
]);

export function canMove(from: WithdrawalStatusCode, to: WithdrawalStatusCode, internal = false): boolean {
  return (internal ? internalTransitions : withdrawalTransitions).get(from)?.includes(to) ?? false;
}

/** A move the machine does not allow is a bug in the decider, never something to journal. */
export class ForbiddenTransition extends Error {
  override name = 'ForbiddenTransition';
}

/** The record after the moves, each one checked and recorded in its history. */
export function move(
  record: WithdrawalRecord,
  path: readonly WithdrawalStatusCode[],
  now: number,
  changes: Partial<WithdrawalRecord> = {},
): { withdrawal: WithdrawalRecord; transitions: WithdrawalTransition[] } {
  let status = record.status;
  const transitions: WithdrawalTransition[] = [];
  for (const to of path) {
    if (!canMove(status, to, record.internalTo !== undefined))
      throw new ForbiddenTransition(`withdrawal ${record.withdrawalId}: ${status} → ${to} is not a transition`);
    transitions.push({ from: status, to, time: now });
    status = to;
  }
  return {
    withdrawal: { ...record, ...changes, status, updateTime: now, history: [...record.history, ...transitions] },
    transitions,
  };
}
