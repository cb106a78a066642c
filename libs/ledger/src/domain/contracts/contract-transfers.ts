import type { FlowEntry, TransferFunds } from '@exchange/contracts';
import { balanceAfter, type DecisionContext, type Draft, flow } from '../ledger-decision';
import type { Money } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import { type AccountState, type LedgerState, peekBalance } from '../ledger-state';
import { contractDrafts } from './contract-routing';
import { MARGIN_TOKEN, totalOf } from './contract-decision';
import { peekContractBalance } from './contract-state';

interface Leg {
  flow: FlowEntry;
  /** The spot balance after the leg; absent for a contracts account, whose USDT is the contracts fold's. */
  spot?: ReturnType<typeof balanceAfter>;
  contract: Draft[];
}

/**
 * A transfer to or from a contracts account (type 3): only USDT, which there is the contracts
 * fold's free margin balance, not a spot balance. One FundsTransferred (both flows, the spot
 * balances it changed) and the contracts events of the type-3 sides (ContractAccountDebited,
 * ContractAccountCredited); too little free USDT is -1131 on either side.
 */
export function contractTransfer(
  command: TransferFunds,
  from: AccountState,
  to: AccountState,
  amount: Money,
  state: LedgerState,
  ctx: DecisionContext,
): Draft[] {
  const { userId, transferId, asset } = command.payload;
  if (asset !== MARGIN_TOKEN)
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      `Invalid value for parameter 'asset': only ${MARGIN_TOKEN} moves to or from a contracts account.`,
    );
  const envelope = { v: 1, id: command.id, ts: command.ts } as const;
  const leg = (account: AccountState, k: number, sign: 1 | -1): Leg => {
    const accountId = account.record.accountId;
    const change = sign === 1 ? amount : amount.negated();
    if (account.record.accountType === 3) {
      const contract =
        sign === 1
          ? contractDrafts(
              {
                type: 'CreditContractAccount',
                ...envelope,
                payload: { userId, accountId, creditId: transferId, amount: amount.toFixed() },
              },
              state,
              ctx,
            )
          : contractDrafts(
              {
                type: 'DebitContractAccount',
                ...envelope,
                payload: { userId, accountId, debitId: transferId, amount: amount.toFixed() },
              },
              state,
              ctx,
            );
      const b = peekContractBalance(state.contracts, accountId);
      const total = totalOf(b).plus(change).toFixed();
      return {
        flow: {
          flowId: ctx.flowId(k),
          accountId,
          asset,
          flowType: 'USER_ACCOUNT_TRANSFER',
          change: change.toFixed(),
          total,
        },
        contract,
      };
    }
    const balance = peekBalance(account, asset);
    if (sign === -1 && balance.free.lessThan(amount))
      throw new LedgerRejection(
        RejectCode.INSUFFICIENT_BALANCE,
        `Insufficient ${asset} balance in account ${accountId}.`,
      );
    const after = { free: balance.free.plus(change), locked: balance.locked };
    return {
      flow: flow(ctx, k, accountId, asset, 'USER_ACCOUNT_TRANSFER', change, after),
      spot: balanceAfter(accountId, asset, after),
      contract: [],
    };
  };
  const [out, into] = [leg(from, 0, -1), leg(to, 1, 1)];
  const flows = [out.flow, into.flow];
  const balances = [out.spot, into.spot].filter((b) => b !== undefined);
  return [
    {
      type: 'FundsTransferred',
      payload: {
        transferId,
        fromAccountId: from.record.accountId,
        toAccountId: to.record.accountId,
        asset,
        amount: amount.toFixed(),
        flows,
        balances,
      },
    },
    ...out.contract,
    ...into.contract,
  ];
}
