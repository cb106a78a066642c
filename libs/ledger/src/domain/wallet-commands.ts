import type { LedgerJournalEvent, TrackWithdrawal, WithdrawalHeld } from '@exchange/contracts';

/**
 * The `wallet.commands` records a ledger decision causes: a held withdrawal is handed to the
 * wallet, in the batch's transaction, with the event's id (the wallet decides each id once).
 */
export function trackWithdrawalFor(event: WithdrawalHeld): TrackWithdrawal {
  const { status: _status, time: _time, updateTime: _updateTime, ...request } = event.payload.withdrawal;
  return { type: 'TrackWithdrawal', v: 1, id: event.id, ts: event.ts, payload: { ...request, heldAt: event.ts } };
}

export function walletCommandsFor(events: readonly LedgerJournalEvent[]): TrackWithdrawal[] {
  return events.filter((e): e is WithdrawalHeld => e.type === 'WithdrawalHeld').map(trackWithdrawalFor);
}
