import type { DataSource } from 'typeorm';
import type { AccountFlags } from '../domain/account-stream';

export interface AccountStart {
  userId: string;
  flags: AccountFlags;
  /** The user's ledger sequence the tables include: the stream carries what comes after it. */
  seq: number;
}

/**
 * Where an account's stream starts: its flags and its user's sequence, read from the ledger's
 * projections in one statement (one snapshot). The ledger writes them in the transaction that
 * journals the events, so every later event has a higher sequence.
 */
export class AccountFlagsReader {
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
}
