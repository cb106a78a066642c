import type { LedgerOrderRecord, LedgerTradeRecord } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

const OPEN = ['NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL'];
const FINAL = ['FILLED', 'CANCELED', 'REJECTED'];

export interface OrderListQuery {
  accountId: string;
  symbol?: string;
  /** Orders with an id lower than it (the spec's orderId rule). */
  orderIdBelow?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

export interface TradeListQuery {
  accountId: string;
  symbol?: string;
  fromId?: string;
  toId?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** Read-only queries of the ledger's order and trade projections. */
export class OrdersReader {
  constructor(private readonly db: SchemaQueries) {}

  async order(
    accountId: string,
    orderId: string | undefined,
    clientOrderId: string | undefined,
  ): Promise<LedgerOrderRecord | undefined> {
    const s = this.db.s;
    const rows: { record: LedgerOrderRecord }[] =
      orderId !== undefined
        ? await this.db.query(`SELECT record FROM ${s}.orders WHERE account_id = $1 AND order_id = $2`, [
            accountId,
            orderId,
          ])
        : await this.db.query(
            `SELECT record FROM ${s}.orders WHERE account_id = $1 AND client_order_id = $2 ORDER BY order_id DESC LIMIT 1`,
            [accountId, clientOrderId],
          );
    const record = rows[0]?.record;
    return record && (clientOrderId === undefined || record.clientOrderId === clientOrderId) ? record : undefined;
  }

  openOrders(query: OrderListQuery): Promise<LedgerOrderRecord[]> {
    return this.orders(query, OPEN);
  }

  historyOrders(query: OrderListQuery): Promise<LedgerOrderRecord[]> {
    return this.orders(query, FINAL);
  }

  /**
   * myTrades' four rules: fromId alone → ids below it, descending; toId alone → ids above it,
   * ascending; both → between them, descending; neither → the most recent, descending.
   */
  async trades(query: TradeListQuery): Promise<LedgerTradeRecord[]> {
    const { where, params } = filters(query.accountId, query.symbol, query.startTime, query.endTime);
    if (query.fromId !== undefined) where.push(`trade_id < $${params.push(query.fromId)}`);
    if (query.toId !== undefined) where.push(`trade_id > $${params.push(query.toId)}`);
    const ascending = query.toId !== undefined && query.fromId === undefined;
    const rows: { record: LedgerTradeRecord }[] = await this.db.query(
      `SELECT record FROM ${this.db.s}.trades WHERE ${where.join(' AND ')} ORDER BY trade_id ${ascending ? 'ASC' : 'DESC'} LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => r.record);
  }

  private async orders(query: OrderListQuery, statuses: string[]): Promise<LedgerOrderRecord[]> {
    const { where, params } = filters(query.accountId, query.symbol, query.startTime, query.endTime);
    where.push(`status = ANY($${params.push(statuses)})`);
    if (query.orderIdBelow !== undefined) where.push(`order_id < $${params.push(query.orderIdBelow)}`);
    const rows: { record: LedgerOrderRecord }[] = await this.db.query(
      `SELECT record FROM ${this.db.s}.orders WHERE ${where.join(' AND ')} ORDER BY order_id DESC LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => r.record);
  }
}

function filters(
  accountId: string,
  symbol: string | undefined,
  startTime: number | undefined,
  endTime: number | undefined,
): { where: string[]; params: unknown[] } {
  const params: unknown[] = [accountId];
  const where = ['account_id = $1'];
  if (symbol !== undefined) where.push(`symbol = $${params.push(symbol)}`);
  if (startTime !== undefined) where.push(`time >= $${params.push(startTime)}`);
  if (endTime !== undefined) where.push(`time <= $${params.push(endTime)}`);
  return { where, params };
}
