import type { FlowEntry } from '../ledger/ledger-events';
import type {
  ContractOrderType,
  ContractPriceType,
  ContractSide,
  ContractTimeInForce,
  PositionSide,
} from './contract-commands.v1';
import type { ContractAdlEvent } from './contract-adl-events';
import type { ContractRiskEvent } from './contract-risk-events';

/**
 * What the contracts domain decided, as plain data with every number a decimal string. Each event
 * carries what changed: the amounts moved, and the new values of the balances, the position and
 * the order it touched (so a fold sets them and a stream can report them), never unrelated records.
 * The journal envelope (userId, seq, commandId) is added where they join `ledger.events`.
 */

/** A contracts account's USDT after an event: free, locked by open orders, held as position margin. */
export interface ContractBalanceAfter {
  accountId: string;
  free: string;
  locked: string;
  positionMargin: string;
}

/** A position after an event (spec 6.4: avgPrice, size, available, margin, realised PnL). */
export interface PositionAfter {
  accountId: string;
  symbol: string;
  side: PositionSide;
  /** Contracts held. */
  size: string;
  /** size minus what open close orders claim. */
  available: string;
  /** Contracts that open OPEN orders on this side may still add. */
  opening: string;
  /** Σ fill price × contracts × multiplier of what is held: avgPrice = entryValue / (size × multiplier), exactly. */
  entryValue: string;
  avgPrice: string;
  margin: string;
  realizedPnl: string;
  /** The leverage of the position and its open OPEN orders ("0" while it has neither). */
  leverage: string;
  /**
   * The liquidation price: where margin + unrealised PnL meets the tier's maintenance margin, to
   * USDT's precision rounded towards the mark (so detection never runs late). "0" while nothing
   * can liquidate it: an empty position, a LONG whose margin covers its whole entry value, the fund's.
   */
  flp: string;
}

/** REJECTED: the engine refused the order (a LIMIT_MAKER that would take, a halted symbol). */
export type ContractOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export interface ContractOrderRecord {
  orderId: string;
  accountId: string;
  userId: string;
  symbol: string;
  side: ContractSide;
  price: string;
  quantity: string;
  /** "0" on close orders. */
  leverage: string;
  executedQty: string;
  /** What the order locked when placed (BHEx's marginLocked): margin plus the taker fees to open and close. */
  marginLocked: string;
  /** What of marginLocked it still holds. */
  marginLeft: string;
  status: ContractOrderStatus;
  time: number;
  marketsVersion: number;
  /** STOP until its trigger releases it as the LIMIT order it describes. */
  orderType: ContractOrderType;
  triggerPrice?: string;
  /** IOC for the insurance fund's closing orders; absent means the engine's default (GTC). */
  timeInForce?: ContractTimeInForce;
  /** The client's id (users' orders; the fund's have none). */
  clientOrderId?: string;
  /** How the gateway chose `price`; absent: INPUT. */
  priceType?: ContractPriceType;
}

/** The part of an order a fill or an end changes. */
export interface ContractOrderChange {
  orderId: string;
  executedQty: string;
  marginLeft: string;
  status: ContractOrderStatus;
}

/** One account's side of a contract trade, as the ledger's projection keeps it and myTrades lists it. */
export interface ContractTradeRecord {
  tradeId: string;
  accountId: string;
  orderId: string;
  symbol: string;
  side: ContractSide;
  price: string;
  quantity: string;
  isMaker: boolean;
  fee: string;
  feeToken: string;
  /** Realised PnL of a CLOSE fill ("0" on OPEN fills). */
  pnl: string;
  time: number;
  /** The other side's order; absent in trades settled before the engine named it (read as "0"). */
  matchOrderId?: string;
}

export interface ContractAccountCredited {
  type: 'ContractAccountCredited';
  payload: { creditId: string; accountId: string; amount: string; balance: ContractBalanceAfter };
}

export interface ContractAccountDebited {
  type: 'ContractAccountDebited';
  payload: { debitId: string; accountId: string; amount: string; balance: ContractBalanceAfter };
}

export interface ContractOrderPlaced {
  type: 'ContractOrderPlaced';
  payload: { order: ContractOrderRecord; balance: ContractBalanceAfter; position: PositionAfter };
}

export interface ContractOrderFilled {
  type: 'ContractOrderFilled';
  payload: {
    tradeId: string;
    accountId: string;
    symbol: string;
    side: ContractSide;
    price: string;
    quantity: string;
    isMaker: boolean;
    fee: string;
    feeToken: string;
    /** Realised PnL of a CLOSE fill as settled ("0" on OPEN fills). */
    pnl: string;
    /**
     * A loss the position's margin could not pay (a position past bankruptcy, which part 2's
     * liquidation prevents): the insurance fund's to cover. "0" almost always.
     */
    uncovered: string;
    /** The engine's decision time of the trade (what market trades show), when the engine's leg named it. */
    time?: number;
    /** The other side's order (myTrades' matchOrderId), when the engine's leg named it (SettleTradeLeg v2). */
    matchOrderId?: string;
    order: ContractOrderChange;
    position: PositionAfter;
    balance: ContractBalanceAfter;
    feeAccount: ContractBalanceAfter;
    /** PNL and FEE entries; a contracts account's `total` is free + locked + position margin. */
    flows: FlowEntry[];
  };
}

export interface ContractOrderEnded {
  type: 'ContractOrderEnded';
  payload: {
    accountId: string;
    symbol: string;
    side: ContractSide;
    order: ContractOrderChange;
    released: string;
    balance: ContractBalanceAfter;
    position: PositionAfter;
    /** The engine's reason, when it gave one; LIQUIDATION for an order canceled because its position was liquidated. */
    reason?: string;
  };
}

export interface PositionMarginModified {
  type: 'PositionMarginModified';
  payload: {
    accountId: string;
    symbol: string;
    side: PositionSide;
    amount: string;
    position: PositionAfter;
    balance: ContractBalanceAfter;
  };
}

export type ContractEvent =
  | ContractAccountCredited
  | ContractAccountDebited
  | ContractOrderPlaced
  | ContractOrderFilled
  | ContractOrderEnded
  | PositionMarginModified
  | ContractCancelRequested
  | ContractRiskEvent
  | ContractAdlEvent;

/**
 * A cancel on its way to the engine (the engine command is derived from it), a user's or a
 * liquidation's: the order stays open, marked as cancel-requested in the ledger's fold, until the
 * engine's outcome (or its last fill) ends it.
 */
export interface ContractCancelRequested {
  type: 'ContractCancelRequested';
  payload: {
    order: ContractOrderRecord;
    /** Set when a liquidation asked for it: the order's end then says so (ContractOrderEnded.reason), whatever the engine's reason. */
    reason?: 'LIQUIDATION';
  };
}

/** The engine's word that an order's remainder rests on the book (what a new order's REST answer waits for): no contracts state changes. */
export interface ContractOrderRested {
  type: 'ContractOrderRested';
  payload: { accountId: string; symbol: string; orderId: string };
}

export type ContractOrderNotice = ContractOrderRested;
