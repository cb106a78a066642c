import {
  type CreditDeposit,
  type ReleaseWithdrawal,
  type ReportDeposit,
  type SettleWithdrawal,
  type WalletEvent,
  type WithdrawalRecord,
  WithdrawalStatus as S,
} from '@exchange/contracts';

/**
 * What a wallet event asks of others, derived from the event alone so the processor writes it to
 * its outbox in the batch's transaction and a rebuild derives the same. Each message's id is the
 * event's id plus its role: the receiver applies each id once, whatever the relay repeats.
 */
export interface WalletEffects {
  /** To ledger.commands: settle or release a withdrawal's hold, credit a deposit. */
  ledger: (SettleWithdrawal | ReleaseWithdrawal | CreditDeposit)[];
  /** To wallet.commands of the receiver: an internal transfer arrives as a deposit of its account. */
  wallet: ReportDeposit[];
  /** Withdrawals that entered processing and go to the chain adapter. */
  broadcast: WithdrawalRecord[];
}

const released: ReadonlySet<number> = new Set([S.BROKER_REJECT, S.AUDIT_REJECT, S.FAILURE]);

export function effectsOf(event: WalletEvent): WalletEffects {
  const effects: WalletEffects = { ledger: [], wallet: [], broadcast: [] };
  if (event.type === 'DepositReported' && event.payload.credited) {
    const d = event.payload.deposit;
    effects.ledger.push({
      type: 'CreditDeposit',
      v: 1,
      id: `${event.id}/credit`,
      ts: event.ts,
      payload: { userId: d.userId, accountId: d.accountId, depositId: d.depositId, asset: d.asset, amount: d.quantity },
    });
  }
  if (event.type !== 'WithdrawalTracked' && event.type !== 'WithdrawalAdvanced') return effects;
  const w = event.payload.withdrawal;
  const reached = new Set(event.payload.transitions.map((t) => t.to));
  const hold = { userId: w.userId, accountId: w.accountId, withdrawalId: w.withdrawalId };
  if (reached.has(S.SUCCESS)) {
    effects.ledger.push({ type: 'SettleWithdrawal', v: 1, id: `${event.id}/settle`, ts: event.ts, payload: hold });
    if (w.internalTo) effects.wallet.push(internalDeposit(event.id, event.ts, w, w.internalTo));
  } else if (released.has(w.status)) {
    effects.ledger.push({ type: 'ReleaseWithdrawal', v: 1, id: `${event.id}/release`, ts: event.ts, payload: hold });
  }
  if (reached.has(S.PROCESSING) && w.status === S.PROCESSING && !w.internalTo) effects.broadcast.push(w);
  return effects;
}

/** The receiving side of an internal transfer: a deposit report with all its confirmations, deduplicated by its txid. */
function internalDeposit(
  eventId: string,
  ts: number,
  w: WithdrawalRecord,
  to: { userId: string; accountId: string },
): ReportDeposit {
  return {
    type: 'ReportDeposit',
    v: 1,
    id: `${eventId}/deposit`,
    ts,
    payload: {
      userId: to.userId,
      accountId: to.accountId,
      asset: w.asset,
      chainType: w.chainType,
      address: w.address,
      addressTag: w.addressExt,
      fromAddress: `internal:${w.accountId}`,
      fromAddressTag: '',
      txid: internalTxid(w.withdrawalId),
      quantity: w.quantity,
      confirmations: 1_000_000,
    },
  };
}

/** The txid an internal transfer is known by on both sides. */
export function internalTxid(withdrawalId: string): string {
  return `internal-${withdrawalId}`;
}
