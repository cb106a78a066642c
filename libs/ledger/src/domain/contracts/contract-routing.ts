import type {
  AdlCandidates,
  ApplyAdl,
  ApplyOrderOutcome,
  CollectAdlCandidates,
  ContinueFunding,
  ContinueLiquidation,
  ContractCommand,
  MarkContractPrice,
  ModifyPositionMargin,
  PlaceContractOrder,
  RequestContractCancel,
  SeedInsuranceFund,
  SettleFunding,
  SettleTradeLeg,
  TriggerContractStops,
} from '@exchange/contracts';
import type { Draft, DecisionContext } from '../ledger-decision';
import { requireAccountOf } from '../ledger-decision';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import type { LedgerState } from '../ledger-state';
import { decideContract } from './contract-decider';
import { holdsContractClientId } from './contract-journal-fold';
import { type ContractContext, MARGIN_TOKEN } from './contract-decision';
import { orderRecordOf } from './contract-state';

/**
 * The insurance fund's contracts account where no partition is named (the domain's own tests):
 * a partition has its own (PartitionContext.insuranceAccountId), and positionAfter must know it
 * to leave its positions without a flp.
 */
export const INSURANCE_FUND = { userId: '0', accountId: '99' } as const;

/** The contracts decider's context inside the ledger's batch step. */
export function contractContextOf(ctx: DecisionContext): ContractContext {
  // A wiring error, not a business rejection: it must fail the batch, not be journaled.
  if (ctx.contract === undefined) throw new Error('ledger: contract commands need ctx.contract');
  const margin = ctx.asset(MARGIN_TOKEN);
  if (margin === undefined) throw new Error(`ledger: contracts need the asset ${MARGIN_TOKEN}`);
  const partition = ctx.partition;
  return {
    now: ctx.now,
    contract: ctx.contract,
    marginPrecision: margin.precision,
    feeAccountId: ctx.feeAccountId ?? '',
    flowId: ctx.flowId,
    orderId: (k) => {
      if (!partition) throw new Error('ledger: the insurance fund places orders only where a partition is named');
      return partition.orderId(k);
    },
    insurance: partition ? { userId: partition.userId, accountId: partition.insuranceAccountId } : INSURANCE_FUND,
    ...(partition
      ? { owns: (accountId: string) => partition.owns(accountId), clearingAccountId: partition.clearingAccountId }
      : {}),
    ...(partition?.index !== undefined && partition.count !== undefined
      ? { partitions: { index: partition.index, count: partition.count } }
      : {}),
  };
}

/** Whether a settlement command of the engine is about a contract order (its symbol says so). */
export function isContractSymbol(ctx: DecisionContext, symbol: string): boolean {
  return ctx.contract?.(symbol) !== undefined;
}

/** The contracts decider's events as the ledger's drafts, or its rejection thrown with its code. */
export function contractDrafts(command: ContractCommand, state: LedgerState, ctx: DecisionContext): Draft[] {
  const decision = decideContract(command, state.contracts, contractContextOf(ctx));
  if ('rejection' in decision) throw new LedgerRejection(decision.rejection.code, decision.rejection.msg);
  return decision.events as Draft[];
}

function requireContractsAccount(state: LedgerState, userId: string, accountId: string, forTrading: boolean): void {
  const account = requireAccountOf(state, userId, accountId);
  if (account.record.accountType !== 3 || (forTrading && !account.flags.canTrade)) {
    throw new LedgerRejection(
      RejectCode.NEW_ORDER_REJECTED,
      `New order rejected: account ${accountId} is not a contracts account allowed to trade.`,
    );
  }
}

export function placeContract(command: PlaceContractOrder, state: LedgerState, ctx: DecisionContext): Draft[] {
  const p = command.payload;
  requireContractsAccount(state, p.userId, p.accountId, true);
  if (p.clientOrderId !== undefined && holdsContractClientId(state, p.accountId, p.clientOrderId, ctx.now)) {
    throw new LedgerRejection(RejectCode.DUPLICATE_CLIENT_ORDER_ID, `Duplicate clientOrderId '${p.clientOrderId}'.`);
  }
  return contractDrafts(command, state, ctx);
}

export function modifyMargin(command: ModifyPositionMargin, state: LedgerState, ctx: DecisionContext): Draft[] {
  requireContractsAccount(state, command.payload.userId, command.payload.accountId, false);
  return contractDrafts(command, state, ctx);
}

/** A cancel goes to the engine as it is; the engine's outcome ends the order (or it fills first). */
export function requestContractCancel(
  command: RequestContractCancel,
  state: LedgerState,
  ctx: DecisionContext,
): Draft[] {
  const { userId, accountId, orderId, clientOrderId } = command.payload;
  requireAccountOf(state, userId, accountId);
  const id =
    orderId ?? (clientOrderId === undefined ? undefined : state.contractClientIds.get(accountId)?.get(clientOrderId));
  const order = id === undefined ? undefined : state.contracts.orders.get(id);
  if (
    !order ||
    order.accountId !== accountId ||
    (clientOrderId !== undefined && order.clientOrderId !== clientOrderId)
  ) {
    throw new LedgerRejection(RejectCode.NO_SUCH_ORDER, 'Order does not exist.');
  }
  // A STOP order waiting for its trigger is not on the book: it ends here.
  if (order.orderType === 'STOP') {
    return contractDrafts(
      {
        type: 'EndContractOrder',
        v: 1,
        id: command.id,
        ts: command.ts,
        payload: {
          userId,
          accountId,
          orderId: order.orderId,
          symbol: order.symbol,
          status: 'CANCELED',
          reason: 'USER',
        },
      },
      state,
      ctx,
    );
  }
  return [{ type: 'ContractCancelRequested', payload: { order: orderRecordOf(order) } }];
}

/** A price, funding, seeding or ADL command: the partition decides it for its own accounts, under its system user. */
export function contractRisk(
  command:
    | SeedInsuranceFund
    | SettleFunding
    | ContinueFunding
    | MarkContractPrice
    | ContinueLiquidation
    | TriggerContractStops
    | CollectAdlCandidates
    | AdlCandidates
    | ApplyAdl,
  state: LedgerState,
  ctx: DecisionContext,
): Draft[] {
  if (ctx.partition === undefined) throw new Error(`ledger: ${command.type} needs ctx.partition`);
  return contractDrafts(command, state, ctx);
}

/** One leg of a contract trade, as the contracts domain settles it. */
export function contractTradeLeg(command: SettleTradeLeg, state: LedgerState, ctx: DecisionContext): Draft[] {
  const { userId, accountId, orderId, symbol, tradeId, price, qty, isMaker } = command.payload;
  const fill = {
    type: 'FillContractOrder',
    v: 1,
    id: command.id,
    ts: command.ts,
    payload: { userId, accountId, orderId, symbol, tradeId, price, quantity: qty, isMaker },
  } as const;
  // The trade's time is the engine's (its TradeExecuted carries the same): myTrades and market trades
  // agree. The other side's order is the engine's word too ("0" from a v1 leg, which did not name it).
  const match = command.payload.matchOrderId === '0' ? {} : { matchOrderId: command.payload.matchOrderId };
  return contractDrafts(fill, state, ctx).map((d) =>
    d.type === 'ContractOrderFilled' ? { ...d, payload: { ...d.payload, time: command.ts, ...match } } : d,
  );
}

/**
 * The engine's step of a contract order's life. RESTED is journaled (a new order's answer waits
 * for it); CANCELED and REJECTED end the remainder and release its lock (an IOC or FOK remainder
 * EXPIRED, as the family says); FILLED changes nothing: the last fill already ended the order.
 */
export function contractOutcome(command: ApplyOrderOutcome, state: LedgerState, ctx: DecisionContext): Draft[] {
  const { userId, accountId, orderId, symbol, outcome, reason } = command.payload;
  const order = state.contracts.orders.get(orderId);
  if (!order || order.accountId !== accountId) return [];
  switch (outcome) {
    case 'ACCEPTED':
    case 'FILLED':
      return [];
    case 'RESTED':
      return [{ type: 'ContractOrderRested', payload: { accountId, symbol, orderId } }];
    case 'CANCELED':
    case 'REJECTED': {
      const expired = reason === 'IOC_REMAINDER' || reason === 'FOK_NOT_FILLABLE' || reason === 'MARKET_NO_LIQUIDITY';
      const status = outcome === 'REJECTED' ? 'REJECTED' : expired ? 'EXPIRED' : 'CANCELED';
      return contractDrafts(
        {
          type: 'EndContractOrder',
          v: 1,
          id: command.id,
          ts: command.ts,
          payload: { userId, accountId, orderId, symbol, status, ...(reason === undefined ? {} : { reason }) },
        },
        state,
        ctx,
      );
    }
    default: {
      const unexpected: never = outcome;
      throw new Error(`ledger: unknown outcome ${String(unexpected)}`);
    }
  }
}
