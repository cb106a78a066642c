import type { ContractBalanceAfter, ContractEvent, ContractOrderRecord, PositionAfter, PositionSide } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';

/** A contracts account's USDT: free, locked by open OPEN orders, and held as margin by its positions. */
export interface ContractBalance {
  free: Money;
  locked: Money;
  positionMargin: Money;
}

/**
 * One side of one symbol of one account (hedge mode: a LONG and a SHORT may coexist). The entry
 * value, not an average price, is what is kept: it is exact, so realised PnL is exact too.
 */
export interface PositionState {
  accountId: string;
  symbol: string;
  side: PositionSide;
  size: Money;
  closing: Money;
  opening: Money;
  entryValue: Money;
  margin: Money;
  realizedPnl: Money;
  leverage: Money;
}

/**
 * The contracts fold. Like the ledger's own state it is mutable (evolve applies an event in
 * place, for speed on the order path); decide only reads it.
 */
export interface ContractsState {
  balances: Map<string, ContractBalance>;
  positions: Map<string, PositionState>;
  /** Open orders only: a final order leaves the fold (its history is a projection's). */
  orders: Map<string, ContractOrderRecord>;
  /** Losses no margin could pay (see ContractOrderFilled.uncovered): what the insurance fund owes. */
  uncovered: Money;
}

export function initialContractsState(): ContractsState {
  return { balances: new Map(), positions: new Map(), orders: new Map(), uncovered: ZERO };
}

export function positionKey(accountId: string, symbol: string, side: PositionSide): string {
  return `${accountId}|${symbol}|${side}`;
}

export function peekContractBalance(state: ContractsState, accountId: string): ContractBalance {
  return state.balances.get(accountId) ?? { free: ZERO, locked: ZERO, positionMargin: ZERO };
}

export function peekPosition(state: ContractsState, accountId: string, symbol: string, side: PositionSide): PositionState {
  return (
    state.positions.get(positionKey(accountId, symbol, side)) ?? { accountId, symbol, side, size: ZERO, closing: ZERO, opening: ZERO, entryValue: ZERO, margin: ZERO, realizedPnl: ZERO, leverage: ZERO }
  );
}

function setBalance(state: ContractsState, b: ContractBalanceAfter): void {
  state.balances.set(b.accountId, { free: new Money(b.free), locked: new Money(b.locked), positionMargin: new Money(b.positionMargin) });
}

function setPosition(state: ContractsState, p: PositionAfter): void {
  const size = new Money(p.size);
  state.positions.set(positionKey(p.accountId, p.symbol, p.side), {
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    size,
    closing: size.minus(p.available),
    opening: new Money(p.opening),
    entryValue: new Money(p.entryValue),
    margin: new Money(p.margin),
    realizedPnl: new Money(p.realizedPnl),
    leverage: new Money(p.leverage),
  });
}

export function evolveContracts(state: ContractsState, event: ContractEvent): ContractsState {
  switch (event.type) {
    case 'ContractAccountCredited':
      setBalance(state, event.payload.balance);
      return state;
    case 'ContractOrderPlaced':
      state.orders.set(event.payload.order.orderId, event.payload.order);
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      return state;
    case 'ContractOrderFilled':
    case 'ContractOrderEnded': {
      const { order: change, balance, position } = event.payload;
      const order = state.orders.get(change.orderId);
      if (change.status === 'NEW' || change.status === 'PARTIALLY_FILLED') {
        if (order) state.orders.set(change.orderId, { ...order, executedQty: change.executedQty, marginLeft: change.marginLeft, status: change.status });
      } else {
        state.orders.delete(change.orderId);
      }
      setBalance(state, balance);
      setPosition(state, position);
      if (event.type === 'ContractOrderFilled') {
        setBalance(state, event.payload.feeAccount);
        state.uncovered = state.uncovered.plus(event.payload.uncovered);
      }
      return state;
    }
    case 'PositionMarginModified':
      setBalance(state, event.payload.balance);
      setPosition(state, event.payload.position);
      return state;
    default: {
      const unexpected: never = event;
      throw new Error(`contracts: unknown event ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}
