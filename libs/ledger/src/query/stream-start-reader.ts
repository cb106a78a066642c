import type { AccountFlags, ContractOrderRecord, LedgerOrderRecord } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

export interface AccountStart {
  userId: string;
  flags: AccountFlags;
  /** The user's ledger sequence the tables include: the stream carries what comes after it. */
  seq: number;
  /** The contracts account the stream carries too: the account itself (type 3), or the main token account's main contracts account. */
  contracts?: { accountId: string; flags: AccountFlags };
}

export interface OpenContractOrders {
  /** The user's ledger sequence the orders are as of. */
  seq: number;
  /** Each open order's record and Σ price × quantity of its trades. */
  orders: { record: ContractOrderRecord; value: string }[];
}

export interface OpenOrders {
  /** The user's ledger sequence the orders are as of. */
  seq: number;
  orders: LedgerOrderRecord[];
}

/**
 * What a stream needs from the ledger's projections when a socket opens: where the account's
 * stream starts (its flags and its user's sequence, read in one statement: one snapshot; the
 * ledger writes them in the transaction that journals the events, so every later event has a
 * higher sequence), and whether the listenKey's API key is still valid.
 */
export class StreamStartReader {
  constructor(private readonly db: SchemaQueries) {}

  async start(accountId: string): Promise<AccountStart | undefined> {
    const [row] = (await this.db.query(`${this.selectStarts()} WHERE a.account_id = $1`, [accountId])) as Record<
      string,
      unknown
    >[];
    return row && startOf(row);
  }

  /** Every account's start as `start` reads one, by account id, in one statement (one snapshot): what a replica beginning now would stream from. */
  async everyStart(): Promise<Map<string, AccountStart>> {
    const rows = (await this.db.query(this.selectStarts())) as Record<string, unknown>[];
    return new Map(rows.map((row) => [String(row.account_id), startOf(row)]));
  }

  /**
   * A contracts account's open orders (STOP orders waiting for their trigger included) with Σ
   * price × quantity of their trades, and the user's sequence they are as of: one statement, one
   * snapshot. A stream keeps them to report later fills of orders placed before it began.
   */
  async openContractOrders(accountId: string): Promise<OpenContractOrders> {
    const s = this.db.s;
    const rows = (await this.db.query(
      `SELECT u.seq, o.record,
         coalesce((SELECT sum((t.record->>'price')::numeric * (t.record->>'quantity')::numeric) FROM ${s}.contract_trades t
           WHERE t.order_id = o.order_id AND t.account_id = o.account_id), 0)::text AS value
       FROM ${s}.accounts a JOIN ${s}.users u ON u.user_id = a.user_id
       LEFT JOIN ${s}.contract_orders o ON o.account_id = a.account_id AND o.status IN ('NEW', 'PARTIALLY_FILLED')
       WHERE a.account_id = $1 ORDER BY o.order_id`,
      [accountId],
    )) as { seq: number; record: ContractOrderRecord | null; value: string }[];
    const orders = rows.flatMap((row) => (row.record ? [{ record: row.record, value: row.value }] : []));
    return { seq: Number(rows[0]?.seq ?? 0), orders };
  }

  /**
   * A spot account's open orders and the user's sequence they are as of: one statement, one
   * snapshot. A stream keeps them to report later fills of orders placed before it began.
   */
  async openOrders(accountId: string): Promise<OpenOrders> {
    const s = this.db.s;
    const rows = (await this.db.query(
      `SELECT u.seq, o.record FROM ${s}.accounts a JOIN ${s}.users u ON u.user_id = a.user_id
       LEFT JOIN ${s}.orders o ON o.account_id = a.account_id AND o.status IN ('NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL')
       WHERE a.account_id = $1 ORDER BY o.order_id`,
      [accountId],
    )) as { seq: number; record: LedgerOrderRecord | null }[];
    return { seq: Number(rows[0]?.seq ?? 0), orders: rows.flatMap((row) => (row.record ? [row.record] : [])) };
  }

  async isApiKeyLive(apiKey: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT 1 FROM ${this.db.s}.api_keys WHERE api_key = $1 AND revoked_at IS NULL`, [
      apiKey,
    ])) as unknown[];
    return rows.length > 0;
  }

  /**
   * Accounts of no user (the ledger's fee accounts) have no stream: the join leaves them out. The
   * contracts account a stream carries (c) is the account itself when it is of type 3, the user's
   * type 3 index 0 for the main token account (type 1 index 0), none for any other account.
   */
  private selectStarts(): string {
    const s = this.db.s;
    return `SELECT a.account_id, a.user_id, a.can_trade, a.can_withdraw, a.can_deposit, u.seq,
         c.account_id AS c_account_id, c.can_trade AS c_can_trade, c.can_withdraw AS c_can_withdraw, c.can_deposit AS c_can_deposit
       FROM ${s}.accounts a JOIN ${s}.users u ON u.user_id = a.user_id
       LEFT JOIN ${s}.accounts c ON c.user_id = a.user_id AND c.account_type = 3
         AND (c.account_id = a.account_id OR (a.account_type = 1 AND a.account_index = 0 AND c.account_index = 0))`;
  }
}

function startOf(row: Record<string, unknown>): AccountStart {
  const start: AccountStart = {
    userId: String(row.user_id),
    flags: {
      canTrade: Boolean(row.can_trade),
      canWithdraw: Boolean(row.can_withdraw),
      canDeposit: Boolean(row.can_deposit),
    },
    seq: Number(row.seq),
  };
  if (row.c_account_id === null || row.c_account_id === undefined) return start;
  const flags = {
    canTrade: Boolean(row.c_can_trade),
    canWithdraw: Boolean(row.c_can_withdraw),
    canDeposit: Boolean(row.c_can_deposit),
  };
  return { ...start, contracts: { accountId: String(row.c_account_id), flags } };
}
