import {
  changedOrder,
  type LedgerJournalEvent,
  type LedgerOrderRecord,
  type LedgerTradeRecord,
  placedOrder,
} from '@exchange/contracts';
import { ApiError, ErrorCode } from '@exchange/platform';
import { rejectedBy } from '../ledger-client/ledger-client';
import type { Reply } from '../replies/pending-replies';
import type { Gather } from '../replies/reply-waiters';
import type { OrderRespType } from './order-params';

/** The engine outcomes after which a new order's answer is known (it rests, or it is over). */
const FIRST_ANSWER = new Set(['RESTED', 'FILLED', 'CANCELED', 'REJECTED']);
/** The outcomes that end an order a cancel waits on. */
const FINAL = new Set(['FILLED', 'CANCELED', 'REJECTED']);

export interface Placement {
  order: LedgerOrderRecord;
  fills: LedgerTradeRecord[];
}

/**
 * What a new order waits for among the events its PlaceOrder caused: the ledger's OrderPlaced
 * (enough for ACK, whose fields it holds) or, for RESULT and FULL, the engine's first answer as
 * the ledger applied it, with the order's own trades. The maker sides of its trades descend from
 * the same command and are told apart by order id. The later events say only what they changed:
 * the waiter keeps the record from the OrderPlaced (which precedes them in the user's partition).
 */
export function placementOutcome(
  commandId: string,
  orderId: string,
  respType: OrderRespType,
): Gather<Reply, Placement> {
  const fills: LedgerTradeRecord[] = [];
  let order: LedgerOrderRecord | undefined;
  return (reply) => {
    if (reply.from !== 'ledger') return undefined;
    const event = reply.event;
    if (event.payload.commandId === commandId) {
      if (event.type === 'CommandRejected') throw rejectedBy(event);
      if (event.type === 'OrderPlaced') order = placedOrder(event);
      return order && respType === 'ACK' ? { order, fills: [] } : undefined;
    }
    if (
      (event.type !== 'TradeSettled' && event.type !== 'OrderOutcomeApplied') ||
      event.payload.order.orderId !== orderId ||
      !order
    )
      return undefined;
    order = changedOrder(order, event);
    if (event.type === 'TradeSettled') fills.push(event.payload.trade);
    if (event.type !== 'OrderOutcomeApplied' || !FIRST_ANSWER.has(event.payload.outcome)) return undefined;
    if (order.status === 'REJECTED') throw rejection(event, orderId);
    return { order, fills };
  };
}

/**
 * What a cancel waits for: the ledger's answer to its own RequestCancel (a refusal such as -2011
 * or -1142 ends the wait at once), then the order's end. Only one cancel of an order is ever
 * accepted, and an order's events follow each other in its user's partition, so the end that
 * follows this acceptance is this cancel's: CANCELED by it, or FILLED (or REJECTED) by the
 * engine before the cancel reached the book, which arrive under the order's key.
 */
export function cancelOutcome(commandId: string, orderId: string): Gather<Reply, LedgerOrderRecord> {
  // The record as the acceptance gave it (OrderCancelRequested carries it whole), with what the end changed.
  let order: LedgerOrderRecord | undefined;
  return (reply) => {
    if (reply.from !== 'ledger') return undefined;
    const event = reply.event;
    if (event.payload.commandId === commandId) {
      if (event.type === 'CommandRejected') throw rejectedBy(event);
      if (event.type === 'OrderCancelRequested') order = event.payload.order;
      return undefined;
    }
    if (
      !order ||
      (event.type !== 'TradeSettled' && event.type !== 'OrderOutcomeApplied') ||
      event.payload.order.orderId !== orderId
    )
      return undefined;
    order = changedOrder(order, event);
    return event.type === 'OrderOutcomeApplied' && FINAL.has(event.payload.outcome) ? order : undefined;
  };
}

function rejection(event: LedgerJournalEvent, orderId: string): ApiError {
  const reason = (event.payload as { reason?: string }).reason;
  if (reason === 'SYMBOL_NOT_TRADING')
    return new ApiError(ErrorCode.SYMBOL_NOT_TRADING, 'The symbol is not trading (HALT or BREAK).');
  if (reason === 'LIMIT_MAKER_WOULD_TAKE')
    return new ApiError(
      ErrorCode.NEW_ORDER_REJECTED,
      `Order ${orderId} would immediately match and take; a LIMIT_MAKER order was rejected.`,
    );
  return new ApiError(ErrorCode.NEW_ORDER_REJECTED, `Order ${orderId} was rejected${reason ? ` (${reason})` : ''}.`);
}
