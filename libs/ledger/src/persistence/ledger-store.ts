import { Money } from '../domain/ledger-money';
import type { AccountType, LedgerOrderRecord, LedgerWithdrawalRecord, Permission } from '@exchange/contracts';
import { clearingAccountIdOf, insuranceAccountIdOf } from '../domain/ledger-ids';
import { ProcessedIds, readCheckpoint } from '@exchange/messaging';
import type { DataSource } from 'typeorm';
import {
  defaultFlags,
  deleteSpotOrder,
  feeAccountRecord,
  type LedgerState,
  putOrder,
  putWithdrawal,
  queueFinalOrders,
} from '../domain/ledger-state';
import { loadContracts } from './contract-store';

export interface LoadedPartition {
  nextOffset: number;
  processedCommandIds: ProcessedIds;
}

/**
 * The ledger's state as its query tables hold it, loaded per partition: what the replay tool and
 * the recovery tests compare against the fold of the journal. (The running ledger restores from
 * ledger.snapshots and ledger.events, never from these tables: see LedgerRecovery.)
 */
export class LedgerStore {
  constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
    private readonly partitionOf: (userId: string) => number,
  ) {}

  /**
   * Replaces the state of one partition's users with what PostgreSQL holds: accounts, balances,
   * keys, the orders that are open or hold their client id (final within the retry window at `now`),
   * and the partition's fee account.
   */
  async loadPartition(
    state: LedgerState,
    topic: string,
    partition: number,
    now = 0,
    feeAccountId?: string,
  ): Promise<LoadedPartition> {
    const s = `"${this.schema}"`;
    const partitionAccounts = new Set<string>();
    for (const [userId, user] of state.users) {
      if (this.partitionOf(userId) !== partition) continue;
      for (const accountId of user.accountIds) partitionAccounts.add(accountId);
      for (const accountId of user.accountIds) state.accounts.delete(accountId);
      state.users.delete(userId);
    }
    for (const [apiKey, key] of state.apiKeys)
      if (this.partitionOf(key.userId) === partition) state.apiKeys.delete(apiKey);

    const users: { user_id: string; name: string; seq: number }[] = await this.dataSource.query(
      `SELECT user_id, name, seq FROM ${s}.users WHERE partition = $1`,
      [partition],
    );
    for (const u of users)
      state.users.set(String(u.user_id), { userId: String(u.user_id), name: u.name, seq: u.seq, accountIds: [] });
    const accounts: AccountRow[] = await this.dataSource.query(
      `SELECT a.* FROM ${s}.accounts a JOIN ${s}.users u ON u.user_id = a.user_id WHERE u.partition = $1 ORDER BY a.account_type, a.account_index`,
      [partition],
    );
    for (const a of accounts) {
      const accountId = String(a.account_id);
      const userId = String(a.user_id);
      state.accounts.set(accountId, {
        record: {
          accountId,
          userId,
          accountType: a.account_type as AccountType,
          accountIndex: a.account_index,
          accountName: a.account_name,
        },
        flags: { canTrade: a.can_trade, canWithdraw: a.can_withdraw, canDeposit: a.can_deposit },
        balances: new Map(),
      });
      state.users.get(userId)?.accountIds.push(accountId);
    }
    const balances: { account_id: string; asset: string; free: string; locked: string }[] = await this.dataSource.query(
      `SELECT b.* FROM ${s}.balances b JOIN ${s}.accounts a ON a.account_id = b.account_id JOIN ${s}.users u ON u.user_id = a.user_id WHERE u.partition = $1`,
      [partition],
    );
    for (const b of balances)
      state.accounts
        .get(String(b.account_id))
        ?.balances.set(b.asset, { free: new Money(b.free), locked: new Money(b.locked) });
    const keys: {
      api_key: string;
      account_id: string;
      user_id: string;
      permissions: Permission[];
      revoked_at: string | null;
    }[] = await this.dataSource.query(
      `SELECT k.* FROM ${s}.api_keys k JOIN ${s}.users u ON u.user_id = k.user_id WHERE u.partition = $1`,
      [partition],
    );
    for (const k of keys) {
      state.apiKeys.set(k.api_key, {
        apiKey: k.api_key,
        accountId: String(k.account_id),
        userId: String(k.user_id),
        permissions: k.permissions,
        revoked: k.revoked_at !== null,
      });
    }
    for (const a of accounts) partitionAccounts.add(String(a.account_id));
    const systemAccounts = [
      ...(feeAccountId ? [feeAccountId] : []),
      insuranceAccountIdOf(partition),
      clearingAccountIdOf(partition),
    ];
    await loadContracts(this.dataSource, this.schema, state, partitionAccounts, systemAccounts, now);
    await this.loadOrders(state, partition, now);
    await this.loadWithdrawals(state, partition);
    if (feeAccountId) await this.loadFeeAccount(state, feeAccountId);
    const nextOffset = await readCheckpoint(this.dataSource, this.schema, topic, partition);
    const processed: { command_id: string; decided_at: string }[] = await this.dataSource.query(
      `SELECT command_id, decided_at FROM ${s}.processed_commands WHERE partition = $1 AND decided_at >= $2 ORDER BY decided_at`,
      [partition, now - state.clientIdWindowMs],
    );
    const processedCommandIds = new ProcessedIds();
    for (const p of processed) processedCommandIds.add(p.command_id, Number(p.decided_at));
    return { nextOffset, processedCommandIds };
  }

  private async loadOrders(state: LedgerState, partition: number, now: number): Promise<void> {
    const s = `"${this.schema}"`;
    for (const [orderId, order] of state.orders) {
      if (this.partitionOf(order.userId) !== partition) continue;
      deleteSpotOrder(state, orderId);
      state.clientIds.get(order.accountId)?.delete(order.clientOrderId);
      state.clientIdsEnded.get(order.accountId)?.delete(order.clientOrderId);
    }
    const rows: { record: LedgerOrderRecord }[] = await this.dataSource.query(
      `SELECT o.record FROM ${s}.orders o JOIN ${s}.users u ON u.user_id = o.user_id
       WHERE u.partition = $1 AND (o.final_time IS NULL OR o.final_time > $2) ORDER BY o.order_id`,
      [partition, now - state.clientIdWindowMs],
    );
    for (const { record } of rows) putOrder(state, record);
    queueFinalOrders(
      state,
      rows.map(({ record }) => record),
    );
  }

  private async loadWithdrawals(state: LedgerState, partition: number): Promise<void> {
    for (const [withdrawalId, w] of state.withdrawals) {
      if (this.partitionOf(w.userId) !== partition) continue;
      state.withdrawals.delete(withdrawalId);
      state.withdrawalClientIds.delete(w.accountId);
    }
    const rows: { record: LedgerWithdrawalRecord }[] = await this.dataSource.query(
      `SELECT w.record FROM "${this.schema}".withdrawals w JOIN "${this.schema}".users u ON u.user_id = w.user_id WHERE u.partition = $1 ORDER BY w.withdrawal_id`,
      [partition],
    );
    for (const { record } of rows) putWithdrawal(state, record);
  }

  /** The partition's fee account exists once a trade credited it; before that it is absent, as in the fold. */
  private async loadFeeAccount(state: LedgerState, feeAccountId: string): Promise<void> {
    const exists = await this.dataSource.query(`SELECT 1 FROM "${this.schema}".accounts WHERE account_id = $1`, [
      feeAccountId,
    ]);
    if (exists.length === 0) {
      state.accounts.delete(feeAccountId);
      return;
    }
    const rows: { asset: string; free: string; locked: string }[] = await this.dataSource.query(
      `SELECT asset, free::text, locked::text FROM "${this.schema}".balances WHERE account_id = $1`,
      [feeAccountId],
    );
    const balances = new Map(rows.map((b) => [b.asset, { free: new Money(b.free), locked: new Money(b.locked) }]));
    state.accounts.set(feeAccountId, { record: feeAccountRecord(feeAccountId), flags: { ...defaultFlags }, balances });
  }
}

interface AccountRow {
  account_id: string;
  user_id: string;
  account_type: number;
  account_index: number;
  account_name: string;
  can_trade: boolean;
  can_withdraw: boolean;
  can_deposit: boolean;
}
