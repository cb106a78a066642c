import type { DepositRecord, WithdrawalAddressEntry, WithdrawalRecord } from '@exchange/contracts';
import type { SchemaQueries } from '@exchange/platform';

export interface ListQuery {
  accountId: string;
  asset?: string;
  fromId?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/**
 * Read-only queries of the wallet's read models. The wallet writes them in the same transaction
 * as the events the gateway waits for, so a read after a reply sees the reply's effects.
 */
export class WalletReader {
  constructor(private readonly db: SchemaQueries) {}

  private get s(): string {
    return this.db.s;
  }

  async addressBook(accountId: string, tokenId?: string): Promise<WithdrawalAddressEntry[]> {
    const rows: { record: WithdrawalAddressEntry }[] = tokenId
      ? await this.db.query(
          `SELECT record FROM ${this.s}.withdrawal_addresses WHERE account_id = $1 AND token_id = $2 ORDER BY id`,
          [accountId, tokenId],
        )
      : await this.db.query(`SELECT record FROM ${this.s}.withdrawal_addresses WHERE account_id = $1 ORDER BY id`, [
          accountId,
        ]);
    return rows.map((r) => r.record);
  }

  async addressEntry(id: string): Promise<WithdrawalAddressEntry | undefined> {
    const [row] = await this.db.query<{ record: WithdrawalAddressEntry }>(
      `SELECT record FROM ${this.s}.withdrawal_addresses WHERE id = $1`,
      [id],
    );
    return row?.record;
  }

  /** By id, optionally only within one account; or by client id within the account. */
  async withdrawal(
    by: { withdrawalId: string; accountId?: string } | { clientOrderId: string; accountId: string },
  ): Promise<WithdrawalRecord | undefined> {
    const rows: { record: WithdrawalRecord }[] =
      'withdrawalId' in by
        ? await this.db.query(`SELECT record FROM ${this.s}.withdrawals WHERE withdrawal_id = $1`, [by.withdrawalId])
        : await this.db.query(
            `SELECT record FROM ${this.s}.withdrawals WHERE account_id = $1 AND client_order_id = $2`,
            [by.accountId, by.clientOrderId],
          );
    const record = rows[0]?.record;
    return record && (by.accountId === undefined || record.accountId === by.accountId) ? record : undefined;
  }

  /** withdrawalOrders: fromId gives ids below it; newest first. */
  async withdrawals(query: ListQuery): Promise<WithdrawalRecord[]> {
    const { where, params } = filters(query, 'time');
    if (query.fromId !== undefined) where.push(`withdrawal_id < $${params.push(query.fromId)}`);
    const rows: { record: WithdrawalRecord }[] = await this.db.query(
      `SELECT record FROM ${this.s}.withdrawals WHERE ${where.join(' AND ')} ORDER BY withdrawal_id DESC LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => r.record);
  }

  /** Withdrawals waiting at an operator's audit (1 broker, 3 platform), oldest first, of every account. */
  async awaitingAudit(limit: number): Promise<WithdrawalRecord[]> {
    const rows: { record: WithdrawalRecord }[] = await this.db.query(
      `SELECT record FROM ${this.s}.withdrawals WHERE status IN (1, 3) ORDER BY time, withdrawal_id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.record);
  }

  /** The latest deposits of every account, confirming or credited, newest first (by time: ids come from log positions, which do not order partitions). */
  async latestDeposits(limit: number): Promise<DepositRecord[]> {
    const rows: { record: DepositRecord }[] = await this.db.query(
      `SELECT record FROM ${this.s}.deposits ORDER BY time DESC, deposit_id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.record);
  }

  /** depositOrders: credited deposits; fromId gives ids above it, oldest first; otherwise the most recent, newest first. */
  async deposits(query: ListQuery): Promise<DepositRecord[]> {
    const { where, params } = filters(query, 'credit_time');
    where.push(`status = 'CREDITED'`);
    if (query.fromId !== undefined) where.push(`deposit_id > $${params.push(query.fromId)}`);
    const order = query.fromId !== undefined ? 'ASC' : 'DESC';
    const rows: { record: DepositRecord }[] = await this.db.query(
      `SELECT record FROM ${this.s}.deposits WHERE ${where.join(' AND ')} ORDER BY deposit_id ${order} LIMIT $${params.push(query.limit)}`,
      params,
    );
    return rows.map((r) => r.record);
  }
}

function filters(query: ListQuery, timeColumn: string): { where: string[]; params: unknown[] } {
  const params: unknown[] = [query.accountId];
  const where = ['account_id = $1'];
  if (query.asset !== undefined) where.push(`asset = $${params.push(query.asset)}`);
  if (query.startTime !== undefined) where.push(`${timeColumn} >= $${params.push(query.startTime)}`);
  if (query.endTime !== undefined) where.push(`${timeColumn} <= $${params.push(query.endTime)}`);
  return { where, params };
}
