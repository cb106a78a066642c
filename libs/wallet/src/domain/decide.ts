import type { WalletCommand, WalletEvent } from '@exchange/contracts';
import { addWithdrawalAddress, removeWithdrawalAddress, reportDeposit } from './decide-deposit';
import { approveWithdrawal, rejectWithdrawal, reportWithdrawal, trackWithdrawal } from './decide-withdrawal';
import type { WalletContext, WalletDraft } from './wallet-decision';
import { WalletRejection } from './wallet-rejection';
import type { WalletState } from './wallet-state';

export type { WalletContext } from './wallet-decision';

/**
 * What the wallet decides for one command: exactly one event, a WalletCommandRejected with the
 * family's code when it refuses. Pure: reads the state, changes nothing.
 */
export function decide(command: WalletCommand, state: WalletState, ctx: WalletContext): WalletEvent {
  let draft: WalletDraft;
  try {
    draft = decideDraft(command, state, ctx);
  } catch (error) {
    if (!(error instanceof WalletRejection)) throw error;
    draft = {
      type: 'WalletCommandRejected',
      payload: { commandType: command.type, code: error.code, msg: error.message },
    };
  }
  return journaled(command, ctx.now, draft);
}

/**
 * The refusal of a command whose decision cannot be stored (a value PostgreSQL refuses, found when
 * its batch failed to commit): journaled as any rejection, so replay and the requester see it.
 */
export function rejectionOf(command: WalletCommand, now: number, code: number, msg: string): WalletEvent {
  return journaled(command, now, { type: 'WalletCommandRejected', payload: { commandType: command.type, code, msg } });
}

function journaled(command: WalletCommand, now: number, draft: WalletDraft): WalletEvent {
  return {
    type: draft.type,
    v: 1,
    id: `${command.id}:0`,
    ts: now,
    payload: { ...draft.payload, userId: command.payload.userId, commandId: command.id },
  } as WalletEvent;
}

function decideDraft(command: WalletCommand, state: WalletState, ctx: WalletContext): WalletDraft {
  switch (command.type) {
    case 'TrackWithdrawal':
      return trackWithdrawal(command, state, ctx);
    case 'ApproveWithdrawal':
      return approveWithdrawal(command, state, ctx);
    case 'RejectWithdrawal':
      return rejectWithdrawal(command, state, ctx);
    case 'ReportWithdrawal':
      return reportWithdrawal(command, state, ctx);
    case 'ReportDeposit':
      return reportDeposit(command, state, ctx);
    case 'AddWithdrawalAddress':
      return addWithdrawalAddress(command, state, ctx);
    case 'RemoveWithdrawalAddress':
      return removeWithdrawalAddress(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`wallet: unknown command ${(unexpected as WalletCommand).type}`);
    }
  }
}
