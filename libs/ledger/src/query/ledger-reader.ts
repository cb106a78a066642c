import type { AccountType, Permission } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

export interface AccountRow {
  accountId: string;
  userId: string;
  accountType: AccountType;
  accountIndex: number;
  accountName: string;
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
}

export interface ApiKeyRow {
  apiKey: string;
  accountId: string;
  userId: string;
  permissions: Permission[];
  secretCiphertext: string;
  created: number;
  revoked: boolean;
}

export interface FlowRow {
  flowId: string;
  accountId: string;
  asset: string;
  flowType: string;
  change: string;
  total: string;
  created: number;
}

export interface FlowQuery {
  accountId: string;
  asset?: string;
  /** Ids below it. */
  fromFlowId?: string;
  /** Ids above it. */
  endFlowId?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/**
 * Read-only queries of the ledger's users, accounts, API keys, balances and balance flow. The
 * ledger writes them in the same transaction as the events the gateway waits for, so a read after
 * a reply sees the reply's effects.
 */
export class LedgerReader {
  constructor(private readonly db: SchemaQueries) {}

  private get s(): string {
    return this.db.s;
  }

  async apiKey(apiKey: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.query(`SELECT * FROM ${this.s}.api_keys WHERE api_key = $1`, [apiKey]);
    return row ? toApiKey(row) : undefined;
  }

  async apiKeysOf(accountId: string): Promise<ApiKeyRow[]> {
    const rows = await this.db.query(
      `SELECT * FROM ${this.s}.api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created`,
      [accountId],
    );
    return rows.map(toApiKey);
  }

  async account(accountId: string): Promise<AccountRow | undefined> {
    const [row] = await this.db.query(`SELECT * FROM ${this.s}.accounts WHERE account_id = $1`, [accountId]);
    return row ? toAccount(row) : undefined;
  }

  /** The account, its balances and its user's sequence, read in one statement (one snapshot). */
  async accountWithBalances(
    accountId: string,
  ): Promise<
    { account: AccountRow; balances: Map<string, { free: string; locked: string }>; seq: number } | undefined
  > {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT a.*, u.seq, b.asset, b.free::text AS free, b.locked::text AS locked
       FROM ${this.s}.accounts a JOIN ${this.s}.users u ON u.user_id = a.user_id LEFT JOIN ${this.s}.balances b ON b.account_id = a.account_id
       WHERE a.account_id = $1`,
      [accountId],
    );
    const first = rows[0];
    if (!first) return undefined;
    const balances = new Map<string, { free: string; locked: string }>();
    for (const r of rows)
      if (r.asset) balances.set(String(r.asset), { free: String(r.free), locked: String(r.locked) });
    return { account: toAccount(first), balances, seq: Number(first.seq) };
  }

  async accountsOfUser(userId: string): Promise<AccountRow[]> {
    const rows = await this.db.query(
      `SELECT * FROM ${this.s}.accounts WHERE user_id = $1 ORDER BY account_type, account_index`,
      [userId],
    );
    return rows.map(toAccount);
  }

  /** The newest users first, each with its accounts (the operator console's user list). */
  async users(limit: number): Promise<{ userId: string; name: string; created: number; accounts: AccountRow[] }[]> {
    const users: Record<string, unknown>[] = await this.db.query(
      `SELECT user_id, name, created FROM ${this.s}.users ORDER BY user_id DESC LIMIT $1`,
      [limit],
    );
    if (users.length === 0) return [];
    const accounts: Record<string, unknown>[] = await this.db.query(
      `SELECT * FROM ${this.s}.accounts WHERE user_id = ANY($1::bigint[]) ORDER BY account_type, account_index`,
      [users.map((u) => String(u.user_id))],
    );
    return users.map((u) => ({
      userId: String(u.user_id),
      name: String(u.name),
      created: Number(u.created),
      accounts: accounts.filter((a) => String(a.user_id) === String(u.user_id)).map(toAccount),
    }));
  }

  async userExists(userId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM ${this.s}.users WHERE user_id = $1`, [userId]);
    return rows.length > 0;
  }

  async flows(query: FlowQuery): Promise<FlowRow[]> {
    const where = ['account_id = $1'];
    const params: unknown[] = [query.accountId];
    const add = (clause: string, value: unknown): void => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (query.asset) add('asset = ?', query.asset);
    if (query.fromFlowId) add('flow_id < ?', query.fromFlowId);
    if (query.endFlowId) add('flow_id > ?', query.endFlowId);
    if (query.startTime !== undefined) add('created >= ?', query.startTime);
    if (query.endTime !== undefined) add('created <= ?', query.endTime);
    params.push(query.limit);
    const rows = await this.db.query<Record<string, string>>(
      `SELECT flow_id, account_id, asset, flow_type, change::text, total::text, created FROM ${this.s}.balance_flows
       WHERE ${where.join(' AND ')} ORDER BY flow_id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      flowId: String(r.flow_id),
      accountId: String(r.account_id),
      asset: r.asset!,
      flowType: r.flow_type!,
      change: r.change!,
      total: r.total!,
      created: Number(r.created),
    }));
  }
}

function toAccount(r: Record<string, unknown>): AccountRow {
  return {
    accountId: String(r.account_id),
    userId: String(r.user_id),
    accountType: Number(r.account_type) as AccountType,
    accountIndex: Number(r.account_index),
    accountName: String(r.account_name),
    canTrade: Boolean(r.can_trade),
    canWithdraw: Boolean(r.can_withdraw),
    canDeposit: Boolean(r.can_deposit),
  };
}

function toApiKey(r: Record<string, unknown>): ApiKeyRow {
  return {
    apiKey: String(r.api_key),
    accountId: String(r.account_id),
    userId: String(r.user_id),
    permissions: r.permissions as Permission[],
    secretCiphertext: String(r.secret_ciphertext),
    created: Number(r.created),
    revoked: r.revoked_at !== null,
  };
}
