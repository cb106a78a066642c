import Decimal from 'decimal.js';
import type { ContractOrderChange, ContractOrderRecord, LedgerJournalEvent } from '@exchange/contracts';
import { ApiError, ErrorCode } from '@exchange/platform';
import { rejectedBy } from '../ledger-client/ledger-client';
import type { Reply } from '../replies/pending-replies';
import type { Gather } from '../replies/reply-waiters';
import { contractOrderView, type ContractOrderView } from './contract-views';

/** An order as its events tell it: the record placed, the changes since, and its trades' sums. */
class OrderTrace {
  private order: ContractOrderRecord;
  private updateTime: number;
  private fees = new Decimal(0);
  private value = new Decimal(0);
  private filled = new Decimal(0);

  constructor(event: { ts: number; payload: { order: ContractOrderRecord } }) {
    this.order = event.payload.order;
    this.updateTime = event.ts;
  }

  change(change: ContractOrderChange, ts: number): void {
    this.order = {
      ...this.order,
      executedQty: change.executedQty,
      marginLeft: change.marginLeft,
      status: change.status,
    };
    this.updateTime = ts;
  }

  fill(fill: { fee: string; price: string; quantity: string }): void {
    this.fees = this.fees.plus(fill.fee);
    this.value = this.value.plus(new Decimal(fill.price).times(fill.quantity));
    this.filled = this.filled.plus(fill.quantity);
  }

  get status(): string {
    return this.order.status;
  }

  view(): ContractOrderView {
    return contractOrderView(this.order, this.updateTime, {
      fees: this.fees.toFixed(),
      value: this.value.toFixed(),
      filled: this.filled.toFixed(),
    });
  }
}

/**
 * What a new contract order waits for among the events its command caused: the ledger's
 * ContractOrderPlaced (or its refusal: -1131, -1130, -2022, ...), then the engine's first answer as
 * the ledger applied it: resting (ContractOrderRested), filled by its fills, or ended (an IOC or
 * FOK remainder EXPIRED, a LIMIT_MAKER that would take REJECTED: -2010).
 */
export function contractPlacement(commandId: string, orderId: string): Gather<Reply, ContractOrderView> {
  let trace: OrderTrace | undefined;
  return (reply) => {
    if (reply.from !== 'ledger') return undefined;
    const event = reply.event;
    if (event.payload.commandId === commandId) {
      if (event.type === 'CommandRejected') throw rejectedBy(event);
      if (event.type !== 'ContractOrderPlaced') return undefined;
      trace = new OrderTrace(event);
      // A STOP order waits off the book for its trigger: its placement is the answer.
      return event.payload.order.orderType === 'STOP' ? trace.view() : undefined;
    }
    if (!trace) return undefined;
    switch (event.type) {
      case 'ContractOrderFilled':
        if (event.payload.order.orderId !== orderId) return undefined;
        trace.change(event.payload.order, event.ts);
        trace.fill(event.payload);
        return trace.status === 'FILLED' ? trace.view() : undefined;
      case 'ContractOrderRested':
        return event.payload.orderId === orderId ? trace.view() : undefined;
      case 'ContractOrderEnded':
        if (event.payload.order.orderId !== orderId) return undefined;
        trace.change(event.payload.order, event.ts);
        if (event.payload.order.status === 'REJECTED') throw rejection(event.payload.reason, orderId);
        return trace.view();
      default:
        return undefined;
    }
  };
}

/**
 * What a cancel waits for: the ledger's acceptance of its RequestContractCancel (or -2013), then
 * the order's end: CANCELED by it, or FILLED before the cancel reached the book (routed by the
 * order's key, since another order's command caused it).
 */
export function contractCancelOutcome(
  commandId: string,
  orderId: string,
  known?: ContractOrderRecord,
): Gather<Reply, ContractOrderView> {
  let trace: OrderTrace | undefined;
  return (reply) => {
    if (reply.from !== 'ledger') return undefined;
    const event: LedgerJournalEvent = reply.event;
    if (event.payload.commandId === commandId) {
      if (event.type === 'CommandRejected') throw rejectedBy(event);
      if (event.type === 'ContractCancelRequested') trace = new OrderTrace(event);
      // A STOP order off the book is ended by the ledger at once: the order as the caller read it is the trace.
      else if (event.type === 'ContractOrderEnded' && known)
        trace = new OrderTrace({ ts: event.ts, payload: { order: known } });
    }
    if (
      !trace ||
      (event.type !== 'ContractOrderEnded' && event.type !== 'ContractOrderFilled') ||
      event.payload.order.orderId !== orderId
    )
      return undefined;
    trace.change(event.payload.order, event.ts);
    if (event.type === 'ContractOrderFilled' && event.payload.order.status !== 'FILLED') return undefined;
    if (event.payload.order.status === 'FILLED')
      throw new ApiError(ErrorCode.ORDER_ALREADY_FILLED, `Order ${orderId} was filled before the cancel took effect.`);
    return trace.view();
  };
}

function rejection(reason: string | undefined, orderId: string): ApiError {
  if (reason === 'SYMBOL_NOT_TRADING')
    return new ApiError(ErrorCode.SYMBOL_NOT_TRADING, 'The symbol is not trading (HALT or BREAK).');
  if (reason === 'LIMIT_MAKER_WOULD_TAKE')
    return new ApiError(
      ErrorCode.NEW_ORDER_REJECTED,
      `Order ${orderId} would immediately match and take; a LIMIT_MAKER order was rejected.`,
    );
  return new ApiError(ErrorCode.NEW_ORDER_REJECTED, `Order ${orderId} was rejected${reason ? ` (${reason})` : ''}.`);
}
