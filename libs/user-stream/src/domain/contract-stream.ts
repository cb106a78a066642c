import Decimal from 'decimal.js';
import type {
  AccountFlags,
  AccountFlagsSet,
  ContractBalanceAfter,
  ContractJournalEvent,
  PositionAfter,
} from '@exchange/contracts';
import type { AccountStreamState } from './account-stream';
import { type ContractOrderView, isCloseSide } from './contract-orders-seen';
import { streamedBalance } from './streamed-balance';
import type { ContractExecutionReport, ContractPositionInfo, StreamFrame } from './stream-frames';

/**
 * The contracts account a stream carries besides its own: the account itself for a contracts
 * (type 3) account, the user's main contracts account for the main token account (CONTRACTS.md:
 * a main-account key trades there), none otherwise. Its flags are kept for the balance frame of
 * a main account's stream.
 */
export interface StreamedContracts {
  accountId: string;
  flags: AccountFlags;
}

/** The frames a contracts event gives a stream once it has its E, or undefined when it gives none. */
export type ContractFrames = (E: number) => StreamFrame[];

/**
 * What a contracts event means for a stream that carries a contracts account: a
 * contractExecutionReport when it changed one of the account's orders, an
 * outboundContractPositionInfo per position of the account whose reported keys it changed, then
 * the account's USDT when it moved. In that order, under one E, as spot's frames are.
 */
export function contractFramesOf(
  state: AccountStreamState,
  event: ContractJournalEvent,
  order: ContractOrderView | undefined,
  places: number,
): ContractFrames | undefined {
  const contracts = state.contracts;
  if (!contracts) return undefined;
  const mine = <T extends { accountId: string }>(items: readonly T[]) =>
    items.filter((item) => item.accountId === contracts.accountId);
  const reported = order && order.accountId === contracts.accountId ? order : undefined;
  const positions = lastPerPosition(mine(positionsChangedBy(event)));
  const balance = mine(balancesChangedBy(event)).at(-1);
  if (!reported && positions.length === 0 && !balance) return undefined;
  return (E) => {
    const frames: StreamFrame[] = [];
    if (reported) frames.push(contractExecutionReport(reported, event, E));
    for (const position of positions) frames.push(contractPositionInfo(position, E));
    if (balance) frames.push(contractBalanceFrame(state, contracts, balance, places, E));
    return frames;
  };
}

/** The operator changed the flags of a main account's contracts account: its balance frame says so with no balances, as spot's does. */
export function contractFlagsOf(
  state: AccountStreamState,
  event: AccountFlagsSet,
): { contracts: StreamedContracts; frames: ContractFrames } | undefined {
  const contracts = state.contracts;
  if (!contracts || contracts.accountId === state.accountId || event.payload.accountId !== contracts.accountId)
    return undefined;
  const { canTrade, canWithdraw, canDeposit } = event.payload;
  const changed = { ...contracts, flags: { canTrade, canWithdraw, canDeposit } };
  return {
    contracts: changed,
    frames: (E) => [{ e: 'outboundContractAccountInfo', E, T: canTrade, W: canWithdraw, D: canDeposit, B: [] }],
  };
}

/**
 * Every key of spec 6.3; l, L, n and m describe the fill when the event is one. u ("whether the
 * trade is normal") is false when the order was canceled because its position was liquidated: the
 * family marks liquidation as not normal (its LIQUI_* order types), and 6.3 has no reason key.
 */
export function contractExecutionReport(
  order: ContractOrderView,
  event: ContractJournalEvent,
  E: number,
): ContractExecutionReport {
  const fill = event.type === 'ContractOrderFilled' ? event.payload : undefined;
  return {
    e: 'contractExecutionReport',
    E: String(E),
    s: order.symbol,
    c: order.clientOrderId ?? '',
    S: order.side.startsWith('BUY') ? 'BUY' : 'SELL',
    o: order.orderType,
    f: order.timeInForce ?? 'GTC',
    q: order.quantity,
    p: order.price,
    X: order.status,
    i: order.orderId,
    l: fill?.quantity ?? '0',
    z: order.executedQty,
    L: fill?.price ?? '0',
    n: fill?.fee ?? '0',
    N: fill?.feeToken ?? 'USDT',
    u: !(event.type === 'ContractOrderEnded' && event.payload.reason === 'LIQUIDATION'),
    // Working unless it is a STOP order waiting for its trigger (the family: "for stop orders").
    w: order.orderType !== 'STOP',
    m: fill?.isMaker ?? false,
    O: String(order.time),
    Z: order.cumQuote,
    C: isCloseSide(order.side),
    v: order.reportedLeverage,
  };
}

/** Every key of spec 6.4, with E. */
export function contractPositionInfo(position: PositionAfter, E: number): ContractPositionInfo {
  return {
    e: 'outboundContractPositionInfo',
    E: String(E),
    A: position.accountId,
    s: position.symbol,
    S: position.side,
    p: position.avgPrice,
    P: position.size,
    a: position.available,
    f: position.flp,
    m: position.margin,
    r: position.realizedPnl,
  };
}

/**
 * The contracts account's USDT: f is free, l everything that is not (locked by orders and held as
 * position margin), so f + l is the total its balance flows report. outboundAccountInfo on the
 * account's own stream; on a main account's stream, whose outboundAccountInfo is the token
 * account's, the family's outboundContractAccountInfo.
 */
function contractBalanceFrame(
  state: AccountStreamState,
  contracts: StreamedContracts,
  balance: ContractBalanceAfter,
  places: number,
  E: number,
): StreamFrame {
  const B = [
    streamedBalance(
      { asset: 'USDT', free: balance.free, locked: new Decimal(balance.locked).plus(balance.positionMargin).toFixed() },
      places,
    ),
  ];
  if (contracts.accountId === state.accountId)
    return {
      e: 'outboundAccountInfo',
      E,
      T: state.flags.canTrade,
      W: state.flags.canWithdraw,
      D: state.flags.canDeposit,
      B,
    };
  const { canTrade, canWithdraw, canDeposit } = contracts.flags;
  return { e: 'outboundContractAccountInfo', E, T: canTrade, W: canWithdraw, D: canDeposit, B };
}

/**
 * The positions whose spec 6.4 keys the event changed. An OPEN order's placement and end change
 * only what 6.4 does not show (the contracts it may add, the leverage); a CLOSE order's change the
 * available size.
 */
function positionsChangedBy(event: ContractJournalEvent): PositionAfter[] {
  switch (event.type) {
    case 'ContractOrderPlaced':
      return isCloseSide(event.payload.order.side) ? [event.payload.position] : [];
    case 'ContractOrderEnded':
      return isCloseSide(event.payload.side) ? [event.payload.position] : [];
    case 'ContractOrderFilled':
    case 'PositionMarginModified':
      return [event.payload.position];
    case 'FundingSettled':
      return event.payload.payments.map((payment) => payment.position);
    case 'PositionLiquidated':
      return [event.payload.position, event.payload.fundPosition];
    case 'PositionDeleveraged':
      return [event.payload.position, ...event.payload.counterparties.map((c) => c.position)];
    case 'AdlRequested':
      return [event.payload.fundPosition, ...event.payload.reserved];
    case 'AdlCandidatesReserved':
      return event.payload.reserved;
    case 'AdlResolved':
      return [event.payload.fundPosition];
    case 'AdlApplied':
      return [...event.payload.counterparties.map((c) => c.position), ...event.payload.released];
    case 'AdlCandidatesReceived':
      return [];
    case 'ContractAccountCredited':
    case 'ContractAccountDebited':
    case 'InsuranceFundSeeded':
    case 'ContractStopTriggered':
    case 'ContractCancelRequested':
    case 'ContractOrderRested':
    case 'ContractMarkPriced':
    case 'FundingContinued':
    case 'LiquidationContinued':
      return [];
    default: {
      const unexpected: never = event;
      throw new Error(`user-stream: unknown contracts event ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}

/** The balances the event moved (a STOP's trigger moves none: it locked at submission; a CLOSE order locks nothing; a cancel request and resting move nothing). */
function balancesChangedBy(event: ContractJournalEvent): ContractBalanceAfter[] {
  switch (event.type) {
    case 'ContractOrderPlaced':
      return new Decimal(event.payload.order.marginLocked).isZero() ? [] : [event.payload.balance];
    case 'ContractOrderEnded':
      return new Decimal(event.payload.released).isZero() ? [] : [event.payload.balance];
    case 'ContractOrderFilled':
      return [event.payload.balance, event.payload.feeAccount];
    case 'PositionMarginModified':
    case 'ContractAccountCredited':
    case 'ContractAccountDebited':
    case 'InsuranceFundSeeded':
    case 'PositionLiquidated':
      return [event.payload.balance];
    case 'FundingSettled':
      return [...event.payload.payments.map((payment) => payment.balance), event.payload.insurance];
    case 'PositionDeleveraged':
      return [event.payload.balance, ...event.payload.counterparties.map((c) => c.balance)];
    case 'AdlResolved':
      return [event.payload.fundBalance];
    case 'AdlApplied':
      return event.payload.counterparties.map((c) => c.balance);
    case 'AdlRequested':
    case 'AdlCandidatesReserved':
    case 'AdlCandidatesReceived':
      return [];
    case 'ContractStopTriggered':
    case 'ContractCancelRequested':
    case 'ContractOrderRested':
    case 'ContractMarkPriced':
    case 'FundingContinued':
    case 'LiquidationContinued':
      return [];
    default: {
      const unexpected: never = event;
      throw new Error(`user-stream: unknown contracts event ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}

/** One frame per position, its last state in the event, in the order the positions first appear. */
function lastPerPosition(positions: readonly PositionAfter[]): PositionAfter[] {
  const byKey = new Map<string, PositionAfter>();
  for (const position of positions) byKey.set(`${position.symbol}|${position.side}`, position);
  return [...byKey.values()];
}
