import Decimal from 'decimal.js';
import type { ContractJournalEvent, ContractOrderChange, ContractOrderRecord, ContractSide } from '@exchange/contracts';

/** The contracts accounts an event changes: whose streams it concerns, whoever's command journaled it. */
export function namedAccountsOf(event: ContractJournalEvent): string[] {
  switch (event.type) {
    case 'FundingSettled':
      return event.payload.payments.map((p) => p.accountId);
    case 'PositionDeleveraged':
      return [event.payload.accountId, ...event.payload.counterparties.map((c) => c.accountId)];
    case 'AdlCandidatesReserved':
      return event.payload.reserved.map((p) => p.accountId);
    case 'AdlRequested':
      return [event.payload.fundPosition.accountId, ...event.payload.reserved.map((p) => p.accountId)];
    case 'AdlResolved':
      return [event.payload.fundPosition.accountId];
    case 'AdlApplied':
      return [
        ...event.payload.counterparties.map((c) => c.accountId),
        ...event.payload.released.map((p) => p.accountId),
      ];
    case 'PositionLiquidated':
    case 'ContractOrderEnded':
    case 'ContractOrderFilled':
    case 'ContractStopTriggered':
      return [event.payload.accountId];
    default:
      return [];
  }
}

export function isCloseSide(side: ContractSide): boolean {
  return side === 'BUY_CLOSE' || side === 'SELL_CLOSE';
}

/** A contract order as the stream reports it: the record as the ledger last gave it, and what the stream adds up itself. */
export interface ContractOrderView extends ContractOrderRecord {
  /** Σ price × quantity of its fills: spec 6.3's Z (the family's sample: 2 contracts filled at 8839.6 give 17679.2). */
  cumQuote: string;
  /** v: the order's leverage, or for a CLOSE order (whose record says "0") the leverage of the position it closes. */
  reportedLeverage: string;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);

/**
 * The open contract orders of every user, as this replica has seen them since it started. The
 * ledger's fill and end events carry only what they change (ContractOrderChange), so the stream
 * keeps the rest from the placement; this is kept for every user, not only for streamed accounts,
 * so a socket that connects after its order was placed still gets complete reports. Orders
 * placed before the replica started are seeded from the ledger's tables when a stream of their
 * account begins; one neither seen nor seeded (a race with that read) is reported with what its
 * events carry (price, quantity "0", client id ""). Updated in place: an account with many open
 * orders costs nothing per event.
 */
export class ContractOrderMemory {
  private readonly open = new Map<string, ContractOrderView>();
  /** The last sequence applied per user: a redelivered event changes nothing. */
  private readonly applied = new Map<string, number>();

  /** The order the event changes, as it stands after the event; undefined for other events and for redeliveries. */
  observe(event: ContractJournalEvent): ContractOrderView | undefined {
    const { userId, seq } = event.payload;
    if (seq <= (this.applied.get(userId) ?? 0)) return undefined;
    this.applied.set(userId, seq);
    const view = this.viewAfter(event);
    if (!view) return undefined;
    if (FINAL_STATUSES.has(view.status)) this.open.delete(view.orderId);
    else this.open.set(view.orderId, view);
    return view;
  }

  /**
   * Orders open as of the user's sequence `seq` (read from the ledger's tables when a stream
   * begins), for fills of orders placed before this replica started. Skipped when events after
   * `seq` were applied already: which of these orders they ended cannot be told.
   */
  seed(userId: string, seq: number, orders: readonly { record: ContractOrderRecord; value: string }[]): void {
    if ((this.applied.get(userId) ?? 0) > seq) return;
    this.applied.set(userId, seq);
    for (const { record, value } of orders) {
      if (!this.open.has(record.orderId))
        this.open.set(record.orderId, { ...record, cumQuote: value, reportedLeverage: record.leverage });
    }
  }

  get size(): number {
    return this.open.size;
  }

  private viewAfter(event: ContractJournalEvent): ContractOrderView | undefined {
    switch (event.type) {
      case 'ContractOrderPlaced': {
        const { order, position } = event.payload;
        return {
          ...order,
          cumQuote: '0',
          reportedLeverage: isCloseSide(order.side) ? position.leverage : order.leverage,
        };
      }
      case 'ContractStopTriggered': {
        const { order } = event.payload;
        const known = this.open.get(order.orderId);
        return {
          ...order,
          cumQuote: known?.cumQuote ?? '0',
          reportedLeverage: known?.reportedLeverage ?? order.leverage,
        };
      }
      case 'ContractOrderFilled': {
        const p = event.payload;
        const known = this.known(event.payload.userId, p, p.order);
        return {
          ...known,
          ...p.order,
          cumQuote: new Decimal(known.cumQuote).plus(new Decimal(p.price).times(p.quantity)).toFixed(),
          reportedLeverage: leverageOf(known, p.position),
        };
      }
      case 'ContractOrderEnded': {
        const p = event.payload;
        const known = this.known(event.payload.userId, p, p.order);
        return { ...known, ...p.order, reportedLeverage: leverageOf(known, p.position) };
      }
      default:
        return undefined;
    }
  }

  /** The order as seen so far, or what an event of an order placed before this replica started (and its stream) tells of it. */
  private known(
    userId: string,
    p: { accountId: string; symbol: string; side: ContractSide; position: { leverage: string } },
    change: ContractOrderChange,
  ): ContractOrderView {
    const seen = this.open.get(change.orderId);
    if (seen) return seen;
    return {
      ...change,
      accountId: p.accountId,
      userId,
      symbol: p.symbol,
      side: p.side,
      price: '0',
      quantity: '0',
      leverage: '0',
      marginLocked: '0',
      time: 0,
      marketsVersion: 0,
      orderType: 'LIMIT',
      cumQuote: '0',
      reportedLeverage: p.position.leverage,
    };
  }
}

/** A CLOSE order known only from the tables has no leverage of its own: its position's, while it has one. */
function leverageOf(order: ContractOrderView, position: { leverage: string }): string {
  return order.reportedLeverage === '0' ? position.leverage : order.reportedLeverage;
}
