import type {
  AccountRecord,
  CreateApiKey,
  CreateSubAccount,
  CreateUser,
  CreditDeposit,
  FlowTypeName,
  LedgerAccountCommand,
  LedgerEvent,
  LedgerCommand,
  LedgerJournalEvent,
  SetAccountFlags,
  TransferFunds,
} from '@exchange/contracts';
import { type LedgerState, peekBalance } from './ledger-state';
import { LedgerRejection, RejectCode } from './ledger-rejection';
import {
  balanceAfter,
  type DecisionContext,
  type Draft,
  flow,
  type PartitionContext,
  parseAmount,
  requireAccountOf,
  requireAsset,
  requireUser,
  tradingContext,
  type TradingContext,
} from './ledger-decision';
import { placeOrder, requestCancel } from './place-order';
import { applyOrderOutcome, settleTradeLeg } from './settle-trade';
import { releaseWithdrawal, requestWithdrawal, settleWithdrawal } from './withdrawals';
import {
  contractOutcome,
  contractRisk,
  contractTradeLeg,
  isContractSymbol,
  modifyMargin,
  placeContract,
  requestContractCancel,
} from './contracts/contract-routing';
import { contractTransfer } from './contracts/contract-transfers';

export { type DecisionContext, parseAmount, type TradingContext } from './ledger-decision';

/**
 * What the ledger decides for one command, given its state: the events to journal, or a single
 * CommandRejected with the family's error code. Pure: it reads the state and changes nothing.
 * The account commands need a DecisionContext; any other LedgerCommand a TradingContext.
 */
export function decide(command: LedgerAccountCommand, state: LedgerState, ctx: DecisionContext): LedgerEvent[];
export function decide(command: LedgerCommand, state: LedgerState, ctx: TradingContext): LedgerJournalEvent[];
export function decide(command: LedgerCommand, state: LedgerState, ctx: DecisionContext): LedgerJournalEvent[] {
  let drafts: Draft[];
  try {
    drafts = decideDrafts(command, state, ctx);
  } catch (error) {
    if (!(error instanceof LedgerRejection)) throw error;
    drafts = [
      { type: 'CommandRejected', payload: { commandType: command.type, code: error.code, msg: error.message } },
    ];
  }
  return journaled(command, state, ctx.now, drafts, ctx.partition);
}

/**
 * The refusal of a command whose decision cannot be stored (a value PostgreSQL refuses, found
 * when its batch failed to commit): journaled as any CommandRejected, so a replay folds the same
 * state and the requester gets its answer.
 */
export function rejectionOf(
  command: LedgerCommand,
  state: LedgerState,
  now: number,
  code: number,
  msg: string,
  partition?: PartitionContext,
): LedgerJournalEvent[] {
  return journaled(
    command,
    state,
    now,
    [{ type: 'CommandRejected', payload: { commandType: command.type, code, msg } }],
    partition,
  );
}

function journaled(
  command: LedgerCommand,
  state: LedgerState,
  now: number,
  drafts: Draft[],
  partition?: PartitionContext,
): LedgerJournalEvent[] {
  const userId = 'userId' in command.payload ? command.payload.userId : partition?.userId;
  if (userId === undefined) throw new Error(`ledger: ${command.type} needs ctx.partition`);
  // The partition's system user has no state to count in: its sequence comes from the log position.
  const system = partition !== undefined && userId === partition.userId;
  let seq = state.users.get(userId)?.seq ?? 0;
  return drafts.map(
    (draft, index) =>
      ({
        type: draft.type,
        v: versionOf(draft.type),
        id: `${command.id}:${index}`,
        ts: now,
        // Not a spread: V8 adds properties to a spread's copy on its slow path (~2 µs each).
        payload: Object.assign({}, draft.payload, {
          userId,
          seq: system ? partition.seq(index) : ++seq,
          commandId: command.id,
        }),
      }) as LedgerJournalEvent,
  );
}

/** The spot order events that say what changed are at v 2; every other event is still at its first version. */
const V2_TYPES: ReadonlySet<string> = new Set(['OrderPlaced', 'OrderOutcomeApplied', 'TradeSettled']);

function versionOf(type: LedgerJournalEvent['type']): number {
  return V2_TYPES.has(type) ? 2 : 1;
}

function decideDrafts(command: LedgerCommand, state: LedgerState, ctx: DecisionContext): Draft[] {
  switch (command.type) {
    case 'CreateUser':
      return createUser(command, state);
    case 'CreateSubAccount':
      return createSubAccount(command, state);
    case 'CreateApiKey':
      return createApiKey(command, state);
    case 'RevokeApiKey': {
      const key = state.apiKeys.get(command.payload.apiKey);
      if (!key || key.userId !== command.payload.userId)
        throw new LedgerRejection(RejectCode.REJECTED_API_KEY, 'The API key does not exist.');
      if (key.revoked) return [];
      return [{ type: 'ApiKeyRevoked', payload: { apiKey: key.apiKey, accountId: key.accountId } }];
    }
    case 'CreditDeposit':
      return creditDeposit(command, state, ctx);
    case 'TransferFunds':
      return transferFunds(command, state, ctx);
    case 'SetAccountFlags':
      return setAccountFlags(command, state);
    case 'PlaceOrder':
      return placeOrder(command, state, tradingContext(ctx));
    case 'RequestCancel':
      return requestCancel(command, state, tradingContext(ctx));
    case 'ApplyOrderOutcome':
      return isContractSymbol(ctx, command.payload.symbol)
        ? contractOutcome(command, state, ctx)
        : applyOrderOutcome(command, state);
    case 'SettleTradeLeg':
      return isContractSymbol(ctx, command.payload.symbol)
        ? contractTradeLeg(command, state, ctx)
        : settleTradeLeg(command, state, tradingContext(ctx));
    case 'PlaceContractOrder':
      return placeContract(command, state, ctx);
    case 'RequestContractCancel':
      return requestContractCancel(command, state, ctx);
    case 'ModifyPositionMargin':
      return modifyMargin(command, state, ctx);
    case 'SeedInsuranceFund':
    case 'SettleFunding':
    case 'MarkContractPrice':
    case 'TriggerContractStops':
    case 'CollectAdlCandidates':
    case 'AdlCandidates':
    case 'ApplyAdl':
    case 'ContinueFunding':
    case 'ContinueLiquidation':
      return contractRisk(command, state, ctx);
    case 'RequestWithdrawal':
      return requestWithdrawal(command, state, ctx);
    case 'SettleWithdrawal':
      return settleWithdrawal(command, state, ctx);
    case 'ReleaseWithdrawal':
      return releaseWithdrawal(command, state, ctx);
    default: {
      const unexpected: never = command;
      throw new Error(`ledger: unknown command ${(unexpected as LedgerCommand).type}`);
    }
  }
}

function createUser(command: CreateUser, state: LedgerState): Draft[] {
  const { userId, name, accountIds } = command.payload;
  if (state.users.has(userId)) throw new LedgerRejection(RejectCode.INVALID_VALUE, `User ${userId} already exists.`);
  for (const accountId of accountIds) ensureNewAccountId(state, accountId);
  const accounts: AccountRecord[] = accountIds.map((accountId, i) => ({
    accountId,
    userId,
    accountType: (i + 1) as 1 | 2 | 3,
    accountIndex: 0,
    accountName: '',
  }));
  return [{ type: 'UserCreated', payload: { name, accounts } }];
}

function createSubAccount(command: CreateSubAccount, state: LedgerState): Draft[] {
  const { userId, accountId, accountType, accountName } = command.payload;
  const user = requireUser(state, userId);
  ensureNewAccountId(state, accountId);
  const sameType = user.accountIds
    .map((id) => state.accounts.get(id)!.record)
    .filter((r) => r.accountType === accountType);
  const accountIndex = Math.max(...sameType.map((r) => r.accountIndex)) + 1;
  return [
    { type: 'SubAccountCreated', payload: { account: { accountId, userId, accountType, accountIndex, accountName } } },
  ];
}

function createApiKey(command: CreateApiKey, state: LedgerState): Draft[] {
  const { userId, accountId, apiKey, secretCiphertext, permissions } = command.payload;
  requireAccountOf(state, userId, accountId);
  if (state.apiKeys.has(apiKey)) throw new LedgerRejection(RejectCode.INVALID_VALUE, 'The API key already exists.');
  return [
    { type: 'ApiKeyCreated', payload: { apiKey, accountId, secretCiphertext, permissions: [...new Set(permissions)] } },
  ];
}

function creditDeposit(command: CreditDeposit, state: LedgerState, ctx: DecisionContext): Draft[] {
  const { userId, accountId, depositId, asset } = command.payload;
  const account = requireAccountOf(state, userId, accountId);
  const amount = parseAmount(command.payload.amount, requireAsset(ctx, asset), 'amount');
  const balance = peekBalance(account, asset);
  const after = { free: balance.free.plus(amount), locked: balance.locked };
  return [
    {
      type: 'DepositCredited',
      payload: {
        depositId,
        accountId,
        asset,
        amount: amount.toFixed(),
        flows: [flow(ctx, 0, accountId, asset, 'DEPOSIT', amount, after)],
        balances: [balanceAfter(accountId, asset, after)],
      },
    },
  ];
}

function transferFunds(command: TransferFunds, state: LedgerState, ctx: DecisionContext): Draft[] {
  const { userId, transferId, fromAccountId, toAccountId, asset } = command.payload;
  // Both accounts belong to the user whose partition decides: a transfer to another user is a
  // debit here and a credit command to the other partition (the wallet's internal withdrawals).
  const from = requireAccountOf(state, userId, fromAccountId);
  const to = requireAccountOf(state, userId, toAccountId);
  if (fromAccountId === toAccountId)
    throw new LedgerRejection(RejectCode.INVALID_VALUE, 'The source and the destination account are the same.');
  const amount = parseAmount(command.payload.amount, requireAsset(ctx, asset), 'amount');
  if (from.record.accountType === 3 || to.record.accountType === 3)
    return contractTransfer(command, from, to, amount, state, ctx);
  const fromBalance = peekBalance(from, asset);
  if (fromBalance.free.lessThan(amount))
    throw new LedgerRejection(
      RejectCode.INSUFFICIENT_BALANCE,
      `Insufficient ${asset} balance in account ${fromAccountId}.`,
    );
  const flowType: FlowTypeName = 'USER_ACCOUNT_TRANSFER';
  const fromAfter = { free: fromBalance.free.minus(amount), locked: fromBalance.locked };
  const toBalance = peekBalance(to, asset);
  const toAfter = { free: toBalance.free.plus(amount), locked: toBalance.locked };
  return [
    {
      type: 'FundsTransferred',
      payload: {
        transferId,
        fromAccountId,
        toAccountId,
        asset,
        amount: amount.toFixed(),
        flows: [
          flow(ctx, 0, fromAccountId, asset, flowType, amount.negated(), fromAfter),
          flow(ctx, 1, toAccountId, asset, flowType, amount, toAfter),
        ],
        balances: [balanceAfter(fromAccountId, asset, fromAfter), balanceAfter(toAccountId, asset, toAfter)],
      },
    },
  ];
}

function setAccountFlags(command: SetAccountFlags, state: LedgerState): Draft[] {
  const { userId, accountId, canTrade, canWithdraw, canDeposit } = command.payload;
  const account = requireAccountOf(state, userId, accountId);
  const flags = {
    canTrade: canTrade ?? account.flags.canTrade,
    canWithdraw: canWithdraw ?? account.flags.canWithdraw,
    canDeposit: canDeposit ?? account.flags.canDeposit,
  };
  return [{ type: 'AccountFlagsSet', payload: { accountId, ...flags } }];
}

function ensureNewAccountId(state: LedgerState, accountId: string): void {
  if (state.accounts.has(accountId))
    throw new LedgerRejection(RejectCode.INVALID_VALUE, `Account ${accountId} already exists.`);
}
