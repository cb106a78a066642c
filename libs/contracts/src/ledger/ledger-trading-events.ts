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

/**
 * What a placement fixes. The rest of the record follows from it: nothing executed yet, status
 * NEW, not working, time and updateTime the event's ts, the whole reservation left; userId is
 * the event's.
 */
export type LedgerOrderTerms = Omit<
  LedgerOrderRecord,
  | 'userId'
  | 'executedQty'
  | 'cummulativeQuoteQty'
  | 'status'
  | 'isWorking'
  | 'time'
  | 'updateTime'
  | 'finalTime'
  | 'reservationLeft'
>;
/** The order fields a trade leg moves; updateTime is the event's ts. */
export type LedgerOrderFill = Pick<
  LedgerOrderRecord,
  'orderId' | 'status' | 'executedQty' | 'cummulativeQuoteQty' | 'reservationLeft'
>;
/** The order fields an engine outcome moves; updateTime is the event's ts, and an order that ends gets finalTime = ts and nothing left reserved. */
export type LedgerOrderStep = Pick<LedgerOrderRecord, 'orderId' | 'status' | 'isWorking'>;

/**
 * v2 of the spot order events say what changed (ARCHITECTURE rule 4: v1 stays readable, upcast
 * on read by upcastLedgerEventV1). An order's terms travel once, in OrderPlaced; a trade leg or an
 * outcome names the order by id with the fields it moved, and the readers keep the rest: the
 * ledger and the gateway's reply waiter from the placement, the projection in its orders row,
 * the user stream in its open-order memory. OrderCancelRequested keeps the whole record (v1):
 * the cancel's reply is rendered from it, and cancels are not on a filled order's path.
 */
export type OrderPlaced = LedgerEventBase<'OrderPlaced', { order: LedgerOrderTerms; balances: BalanceAfter[] }, 2>;
export type OrderCancelRequested = LedgerEventBase<'OrderCancelRequested', { order: LedgerOrderRecord }>;
export type OrderOutcomeApplied = LedgerEventBase<
  'OrderOutcomeApplied',
  { outcome: OrderOutcome; reason?: string; order: LedgerOrderStep; released?: Release; balances: BalanceAfter[] },
  2
>;
/**
 * feeAccountId is the deciding partition's fee account, created by the first fee it receives.
 * The flows (TRADE −paid, TRADE +gross, FEE −fee and FEE +fee on the fee account when there is a
 * fee) follow from the trade and the balances after it; their ids are firstFlowId and the next
 * ones. Only a v1 record upcast carries them as written (`flows`).
 */
export type TradeSettled = LedgerEventBase<
  'TradeSettled',
  {
    trade: LedgerTradeRecord;
    order: LedgerOrderFill;
    feeAccountId: string;
    firstFlowId: string;
    flows?: FlowEntry[];
    balances: BalanceAfter[];
  },
  2
>;

/** The v1 shapes, which carried the whole order record (and OrderPlaced its empty flows) again. */
export type OrderPlacedV1 = LedgerEventBase<
  'OrderPlaced',
  { order: LedgerOrderRecord; flows: FlowEntry[]; balances: BalanceAfter[] }
>;
export type OrderOutcomeAppliedV1 = LedgerEventBase<
  'OrderOutcomeApplied',
  { outcome: OrderOutcome; reason?: string; order: LedgerOrderRecord; released?: Release; balances: BalanceAfter[] }
>;
export type TradeSettledV1 = LedgerEventBase<
  'TradeSettled',
  {
    trade: LedgerTradeRecord;
    order: LedgerOrderRecord;
    feeAccountId: string;
    flows: FlowEntry[];
    balances: BalanceAfter[];
  }
>;
export type LedgerTradingEventV1 = OrderPlacedV1 | OrderOutcomeAppliedV1 | TradeSettledV1;

export type LedgerTradingEvent = OrderPlaced | OrderCancelRequested | OrderOutcomeApplied | TradeSettled;
/** Every event the ledger journals. */
export type LedgerJournalEvent = LedgerEvent | LedgerTradingEvent | LedgerWithdrawalEvent | ContractJournalEvent;
