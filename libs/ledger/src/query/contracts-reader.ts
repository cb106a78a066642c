import type { ContractOrderRecord, ContractTradeRecord, PositionAfter } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

const OPEN = ['NEW', 'PARTIALLY_FILLED'];
/** The partitions' insurance fund accounts (the ledger's INSURANCE_ACCOUNT_IDS: a query reads no domain code). */
const INSURANCE_ACCOUNT_IDS = { first: 101, last: 164 } as const;
const FINAL = ['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'];

/** A contract order as the ledger's projection holds it, with what its trades add up to. */
export interface ContractOrderRow {
  record: ContractOrderRecord;
  updateTime: number;
  /** Σ fee, Σ price × quantity and Σ quantity of its trades. */
  fees: string;
  value: string;
  filled: string;
}

export interface ContractListQuery {
  accountId: string;
  symbol?: string;
  /** Orders (or trades) with a lower id: the family's paging. */
  idBelow?: string;
  /** Orders only: LIMIT or STOP (a STOP order keeps its type until its trigger; absent: both). */
  orderType?: 'LIMIT' | 'STOP';
  startTime?: number;
  endTime?: number;
  limit: number;
}

const ORDER_COLUMNS = `o.record, o.update_time,
  coalesce((SELECT sum((t.record->>'fee')::numeric) FROM %s.contract_trades t WHERE t.order_id = o.order_id AND t.account_id = o.account_id), 0)::text AS fees,
  coalesce((SELECT sum((t.record->>'price')::numeric * (t.record->>'quantity')::numeric) FROM %s.contract_trades t WHERE t.order_id = o.order_id AND t.account_id = o.account_id), 0)::text AS value,
  coalesce((SELECT sum((t.record->>'quantity')::numeric) FROM %s.contract_trades t WHERE t.order_id = o.order_id AND t.account_id = o.account_id), 0)::text AS filled`;

/** Read-only queries of the ledger's contract projections (contract_orders, _trades, _positions, _balances). */
export class ContractsReader {
  private readonly s: string;
  private readonly orderColumns: string;

  constructor(private readonly db: SchemaQueries) {
    this.s = db.s;
    this.orderColumns = ORDER_COLUMNS.replaceAll('%s', this.s);
  }

  async order(
    accountId: string,
    orderId: string | undefined,
    clientOrderId: string | undefined,
  ): Promise<ContractOrderRow | undefined> {
    const where = orderId !== undefined ? 'o.order_id = $2' : 'o.client_order_id = $2';
    const rows: RawOrderRow[] = await this.db.query(
      `SELECT ${this.orderColumns} FROM ${this.s}.contract_orders o WHERE o.account_id = $1 AND ${where} ORDER BY o.order_id DESC LIMIT 1`,
      [accountId, orderId ?? clientOrderId],
    );
    return rows[0] && toOrderRow(rows[0]);
  }

  openOrders(query: ContractListQuery): Promise<ContractOrderRow[]> {
    return this.orders(query, OPEN);
  }

  historyOrders(query: ContractListQuery): Promise<ContractOrderRow[]> {
    return this.orders(query, FINAL);
  }

  async trades(query: ContractListQuery): Promise<ContractTradeRecord[]> {
    const { where, params } = filters(query);
    if (query.idBelow !== undefined) where.push(`trade_id < $${params.push(query.idBelow)}`);
    const rows: { record: ContractTradeRecord }[] = await this.db.query(
      `SELECT record FROM ${this.s}.contract_trades WHERE ${where.join(' AND ')} ORDER BY trade_id DESC LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => r.record);
  }

  async positions(accountId: string, symbol: string | undefined): Promise<PositionAfter[]> {
    const params: unknown[] = [accountId];
    const bySymbol = symbol === undefined ? '' : ` AND symbol = $${params.push(symbol)}`;
    const rows: { record: PositionAfter }[] = await this.db.query(
      `SELECT record FROM ${this.s}.contract_positions WHERE account_id = $1 AND size > 0${bySymbol} ORDER BY symbol, side`,
      params,
    );
    return rows.map((r) => r.record);
  }

  async position(accountId: string, symbol: string, side: string): Promise<PositionAfter | undefined> {
    const rows: { record: PositionAfter }[] = await this.db.query(
      `SELECT record FROM ${this.s}.contract_positions WHERE account_id = $1 AND symbol = $2 AND side = $3`,
      [accountId, symbol, side],
    );
    return rows[0]?.record;
  }

  /** The insurance fund: the sum of every ledger partition's fund account (free USDT; its positions hold no margin). */
  async insuranceFund(): Promise<{ balance: string; accounts: number }> {
    const rows: { balance: string | null; accounts: string }[] = await this.db.query(
      `SELECT sum(free)::text AS balance, count(*)::text AS accounts FROM ${this.s}.contract_balances WHERE account_id BETWEEN $1 AND $2`,
      [INSURANCE_ACCOUNT_IDS.first, INSURANCE_ACCOUNT_IDS.last],
    );
    return { balance: rows[0]?.balance ?? '0', accounts: Number(rows[0]?.accounts ?? 0) };
  }

  async balance(accountId: string): Promise<{ free: string; locked: string; positionMargin: string }> {
    const rows: { free: string; locked: string; position_margin: string }[] = await this.db.query(
      `SELECT free::text, locked::text, position_margin::text FROM ${this.s}.contract_balances WHERE account_id = $1`,
      [accountId],
    );
    const row = rows[0];
    return row
      ? { free: row.free, locked: row.locked, positionMargin: row.position_margin }
      : { free: '0', locked: '0', positionMargin: '0' };
  }

  /**
   * The best prices among the open LIMIT orders the ledger has sent to the book, the last trade
   * price, and the mark price the ledger last consumed (the latest over its partitions): what
   * OPPONENT, QUEUE, OVER and MARKET resolve against and `positions` values at, read from the same
   * projection the order queries read (so it is as current as an immediate getOrder).
   */
  async quotes(
    symbol: string,
  ): Promise<{ bestBid?: string; bestAsk?: string; lastPrice?: string; markPrice?: string }> {
    const [row]: { bid: string | null; ask: string | null; last: string | null; mark: string | null }[] =
      await this.db.query(
        `SELECT
         (SELECT max((record->>'price')::numeric) FROM ${this.s}.contract_orders WHERE symbol = $1 AND status = ANY($2) AND record->>'side' LIKE 'BUY%' AND record->>'orderType' = 'LIMIT')::text AS bid,
         (SELECT min((record->>'price')::numeric) FROM ${this.s}.contract_orders WHERE symbol = $1 AND status = ANY($2) AND record->>'side' LIKE 'SELL%' AND record->>'orderType' = 'LIMIT')::text AS ask,
         (SELECT record->>'price' FROM ${this.s}.contract_trades WHERE symbol = $1 ORDER BY trade_id DESC LIMIT 1) AS last,
         (SELECT mark_price::text FROM ${this.s}.contract_marks WHERE symbol = $1 ORDER BY at DESC, fund_account_id LIMIT 1) AS mark`,
        [symbol, OPEN],
      );
    const found = (key: string, value: string | null | undefined) => (value ? { [key]: value } : {});
    return {
      ...found('bestBid', row?.bid),
      ...found('bestAsk', row?.ask),
      ...found('lastPrice', row?.last),
      ...found('markPrice', row?.mark),
    };
  }

  private async orders(query: ContractListQuery, statuses: string[]): Promise<ContractOrderRow[]> {
    const { where, params } = filters(query, 'o.');
    where.push(`o.status = ANY($${params.push(statuses)})`);
    if (query.orderType !== undefined) where.push(`o.record->>'orderType' = $${params.push(query.orderType)}`);
    if (query.idBelow !== undefined) where.push(`o.order_id < $${params.push(query.idBelow)}`);
    const rows: RawOrderRow[] = await this.db.query(
      `SELECT ${this.orderColumns} FROM ${this.s}.contract_orders o WHERE ${where.join(' AND ')} ORDER BY o.order_id DESC LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map(toOrderRow);
  }
}

interface RawOrderRow {
  record: ContractOrderRecord;
  update_time: string;
  fees: string;
  value: string;
  filled: string;
}

function toOrderRow(r: RawOrderRow): ContractOrderRow {
  return { record: r.record, updateTime: Number(r.update_time), fees: r.fees, value: r.value, filled: r.filled };
}

function filters(query: ContractListQuery, prefix = ''): { where: string[]; params: unknown[] } {
  const params: unknown[] = [query.accountId];
  const where = [`${prefix}account_id = $1`];
  if (query.symbol !== undefined) where.push(`${prefix}symbol = $${params.push(query.symbol)}`);
  if (query.startTime !== undefined) where.push(`${prefix}time >= $${params.push(query.startTime)}`);
  if (query.endTime !== undefined) where.push(`${prefix}time <= $${params.push(query.endTime)}`);
  return { where, params };
}
