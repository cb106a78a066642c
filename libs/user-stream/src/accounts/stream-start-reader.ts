import type { DataSource } from 'typeorm';
import type { AccountFlags } from '../domain/account-stream';

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  async start(accountId: string): Promise<AccountStart | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT a.user_id, a.can_trade, a.can_withdraw, a.can_deposit, u.seq
       FROM "${this.schema}".accounts a JOIN "${this.schema}".users u ON u.user_id = a.user_id WHERE a.account_id = $1`,
      [accountId],
    )) as Record<string, unknown>[];
    if (!row) return undefined;
    return {
      userId: String(row.user_id),
      flags: { canTrade: Boolean(row.can_trade), canWithdraw: Boolean(row.can_withdraw), canDeposit: Boolean(row.can_deposit) },
      seq: Number(row.seq),
    };
  }

  async isApiKeyLive(apiKey: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM "${this.schema}".api_keys WHERE api_key = $1 AND revoked_at IS NULL`, [apiKey])) as unknown[];
    return rows.length > 0;
  }
}
