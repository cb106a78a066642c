import Decimal from 'decimal.js';
import {
  type ApproveWithdrawal,
  type RejectWithdrawal,
  type ReportWithdrawal,
  type TrackWithdrawal,
  type WithdrawalRecord,
  WithdrawalStatus as S,
  type WithdrawalStatusCode,
  withdrawalStatusNames,
} from '@exchange/contracts';
import type { WalletContext, WalletDraft } from './wallet-decision';
import { move } from './withdrawal-machine';
import { WalletRejectCode, WalletRejection } from './wallet-rejection';
import type { WalletState } from './wallet-state';

/**
 * A held withdrawal enters at broker audit (1). Below the asset's automatic-approval amount it
 * passes both audits at once (1→3→5, both recorded); once processing, a withdrawal to an address
 * of this exchange succeeds at once without the chain (5→6).
 */
export function trackWithdrawal(command: TrackWithdrawal, state: WalletState, ctx: WalletContext): WalletDraft {
  const { heldAt, ...request } = command.payload;
  if (state.withdrawals.has(request.withdrawalId))
    throw new WalletRejection(WalletRejectCode.INVALID_VALUE, `Withdrawal ${request.withdrawalId} is already tracked.`);
  const settings = ctx.settings(request.asset);
  const created: WithdrawalRecord = {
    ...request,
    status: S.BROKER_AUDITING,
    time: heldAt,
    updateTime: ctx.now,
    requiredConfirmations: request.internalTo ? 0 : settings.confirmations,
    confirmations: 0,
    txid: '',
    reason: '',
    history: [{ from: 0, to: S.BROKER_AUDITING, time: ctx.now }],
  };
  const autoApproved = new Decimal(request.quantity).lessThan(settings.autoApproveBelow);
  const path: WithdrawalStatusCode[] = autoApproved ? [S.AUDITING, ...enterProcessing(created)] : [];
  const { withdrawal, transitions } = move(created, path, ctx.now);
  return { type: 'WithdrawalTracked', payload: { withdrawal, transitions: [created.history[0]!, ...transitions] } };
}

/** The operator passes the audit the withdrawal waits at: broker (1→3) or platform (3→5, then 5→6 if internal). */
export function approveWithdrawal(command: ApproveWithdrawal, state: WalletState, ctx: WalletContext): WalletDraft {
  const w = withdrawalOf(state, command.payload);
  if (w.status === S.BROKER_AUDITING) return advanced(move(w, [S.AUDITING], ctx.now));
  if (w.status === S.AUDITING) return advanced(move(w, enterProcessing(w), ctx.now));
  throw notAt(w, 'waiting for an audit');
}

/** The operator rejects at the audit the withdrawal waits at: broker (1→2) or platform (3→4). */
export function rejectWithdrawal(command: RejectWithdrawal, state: WalletState, ctx: WalletContext): WalletDraft {
  const w = withdrawalOf(state, command.payload);
  const reason = command.payload.reason;
  if (w.status === S.BROKER_AUDITING) return advanced(move(w, [S.BROKER_REJECT], ctx.now, { reason }));
  if (w.status === S.AUDITING) return advanced(move(w, [S.AUDIT_REJECT], ctx.now, { reason }));
  throw notAt(w, 'waiting for an audit');
}

/**
 * The chain's report. MINED: processing → mining (5→8) with the txid, and success (8→6) once the
 * confirmations reach the asset's count; more confirmations of a mined one are recorded. FAILED:
 * 5→7 or 8→7. Anything else (a final withdrawal, a report that says nothing new) is refused.
 */
export function reportWithdrawal(command: ReportWithdrawal, state: WalletState, ctx: WalletContext): WalletDraft {
  const p = command.payload;
  const w = withdrawalOf(state, p);
  if (p.stage === 'FAILED') {
    if (w.status !== S.PROCESSING && w.status !== S.BLOCK_MINING) throw notAt(w, 'on the chain');
    return advanced(move(w, [S.FAILURE], ctx.now, { reason: p.reason }));
  }
  const confirmed = p.confirmations >= w.requiredConfirmations;
  if (w.status === S.PROCESSING)
    return advanced(
      move(w, confirmed ? [S.BLOCK_MINING, S.SUCCESS] : [S.BLOCK_MINING], ctx.now, {
        txid: p.txid,
        confirmations: p.confirmations,
      }),
    );
  if (w.status !== S.BLOCK_MINING) throw notAt(w, 'on the chain');
  if (p.confirmations <= w.confirmations)
    throw new WalletRejection(
      WalletRejectCode.INVALID_VALUE,
      `Withdrawal ${w.withdrawalId} already has ${w.confirmations} confirmations.`,
    );
  if (confirmed) return advanced(move(w, [S.SUCCESS], ctx.now, { confirmations: p.confirmations }));
  return {
    type: 'WithdrawalConfirmationsUpdated',
    payload: { withdrawal: { ...w, confirmations: p.confirmations, updateTime: ctx.now } },
  };
}

/** Processing (5), then at once success (6) for an internal transfer: it needs no chain. */
function enterProcessing(w: WithdrawalRecord): WithdrawalStatusCode[] {
  return w.internalTo ? [S.PROCESSING, S.SUCCESS] : [S.PROCESSING];
}

function advanced(moved: ReturnType<typeof move>): WalletDraft {
  return { type: 'WithdrawalAdvanced', payload: moved };
}

function withdrawalOf(state: WalletState, p: { userId: string; withdrawalId: string }): WithdrawalRecord {
  const w = state.withdrawals.get(p.withdrawalId);
  if (!w || w.userId !== p.userId)
    throw new WalletRejection(WalletRejectCode.NO_SUCH_ORDER, `Withdrawal ${p.withdrawalId} does not exist.`);
  return w;
}

function notAt(w: WithdrawalRecord, what: string): WalletRejection {
  return new WalletRejection(
    WalletRejectCode.INVALID_VALUE,
    `Withdrawal ${w.withdrawalId} is ${withdrawalStatusNames[w.status]}, not ${what}.`,
  );
}
