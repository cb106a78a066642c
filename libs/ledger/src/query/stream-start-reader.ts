import type { AccountFlags } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

export interface AccountStart {
  userId: string;
  flags: AccountFlags;
  /** The user's ledger sequence the tables include: the stream carries what comes after it. */
  seq: number;
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
    const [row] = (await this.db.query(`${this.selectStarts()} WHERE a.account_id = $1`, [accountId])) as Record<string, unknown>[];
    return row && startOf(row);
  }

  /** Every account's start as `start` reads one, by account id, in one statement (one snapshot): what a replica beginning now would stream from. */
  async everyStart(): Promise<Map<string, AccountStart>> {
    const rows = (await this.db.query(this.selectStarts())) as Record<string, unknown>[];
    return new Map(rows.map((row) => [String(row.account_id), startOf(row)]));
  }

  async isApiKeyLive(apiKey: string): Promise<boolean> {
    const rows = (await this.db.query(`SELECT 1 FROM ${this.db.s}.api_keys WHERE api_key = $1 AND revoked_at IS NULL`, [apiKey])) as unknown[];
    return rows.length > 0;
  }

  /** Accounts of no user (the ledger's fee accounts) have no stream: the join leaves them out. */
  private selectStarts(): string {
    return `SELECT a.account_id, a.user_id, a.can_trade, a.can_withdraw, a.can_deposit, u.seq
       FROM ${this.db.s}.accounts a JOIN ${this.db.s}.users u ON u.user_id = a.user_id`;
  }
}

function startOf(row: Record<string, unknown>): AccountStart {
  return {
    userId: String(row.user_id),
    flags: { canTrade: Boolean(row.can_trade), canWithdraw: Boolean(row.can_withdraw), canDeposit: Boolean(row.can_deposit) },
    seq: Number(row.seq),
  };
}
