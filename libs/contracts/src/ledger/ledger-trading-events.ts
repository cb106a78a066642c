import type { OrderKind, OrderSide, OrderTimeInForce } from '../orders/order-fields';
import type { OrderOutcome } from '../orders/settlement-commands.v1';
import type { BalanceAfter, FlowEntry, LedgerEvent, LedgerEventBase } from './ledger-events';
import type { LedgerWithdrawalEvent } from './ledger-withdrawal-events';
import type { ContractJournalEvent } from '../contracts/contract-journal';

export type LedgerOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'PENDING_CANCEL' | 'REJECTED';

/**
 * The ledger's record of an order after the event that carries it: every trading event carries
 * the whole record, so a projection upserts it and the user stream renders it without joins.
 * Amounts are decimal strings; "0" where a field does not apply.
 */
export interface LedgerOrderRecord {
  orderId: string;
  clientOrderId: string;
  accountId: string;
  userId: string;
  symbol: string;
  side: OrderSide;
  type: OrderKind;
  timeInForce: OrderTimeInForce;
  price: string;
  origQty: string;
  /** The quote amount of a MARKET BUY. */
  origQuoteOrderQty: string;
  executedQty: string;
  /** Sum of the trades' quoteQty (the family's spelling). */
  cummulativeQuoteQty: string;
  status: LedgerOrderStatus;
  /** True while the order rests on the book. */
  isWorking: boolean;
  /** Placement time, ms. */
  time: number;
  updateTime: number;
  /** Set once the status is FILLED, CANCELED or REJECTED; the client id is reserved 24 h after it. */
  finalTime?: number;
  reservedAsset: string;
  /** Locked at placement. */
  reservedAmount: string;
  /** Still locked for this order; released when it ends. */
  reservationLeft: string;
  marketsVersion: number;
}

/** One account's side of a trade, as myTrades lists it. */
export interface LedgerTradeRecord {
  tradeId: string;
  orderId: string;
  accountId: string;
  symbol: string;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

/** Funds moved from locked back to free: no flow entry, the total does not change. */
export interface Release {
  asset: string;
  amount: string;
}

export type OrderPlaced = LedgerEventBase<'OrderPlaced', { order: LedgerOrderRecord; flows: FlowEntry[]; balances: BalanceAfter[] }>;
export type OrderCancelRequested = LedgerEventBase<'OrderCancelRequested', { order: LedgerOrderRecord }>;
export type OrderOutcomeApplied = LedgerEventBase<
  'OrderOutcomeApplied',
  { outcome: OrderOutcome; reason?: string; order: LedgerOrderRecord; released?: Release; balances: BalanceAfter[] }
>;
/** feeAccountId is the deciding partition's fee account, created by the first fee it receives. */
export type TradeSettled = LedgerEventBase<'TradeSettled', { trade: LedgerTradeRecord; order: LedgerOrderRecord; feeAccountId: string; flows: FlowEntry[]; balances: BalanceAfter[] }>;

export type LedgerTradingEvent = OrderPlaced | OrderCancelRequested | OrderOutcomeApplied | TradeSettled;
/** Every event the ledger journals. */
export type LedgerJournalEvent = LedgerEvent | LedgerTradingEvent | LedgerWithdrawalEvent | ContractJournalEvent;
