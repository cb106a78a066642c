import type {
  DepositRecord,
  WalletCommand,
  WalletEvent,
  WithdrawalAddressEntry,
  WithdrawalRecord,
} from '@exchange/contracts';
import type { QueryRunner } from 'typeorm';
import { depositKey, initialWalletState, type WalletState } from '../domain/wallet-state';

type Db = Pick<QueryRunner, 'query'>;

/**
 * The wallet's tables are its fold: the state a batch of commands is decided against is loaded
 * from them (only the records the commands name), and the batch's events are written back in the
 * same transaction. Every write is an idempotent upsert, so a rebuild from wallet.events gives
 * the same rows.
 */
export async function loadStateFor(db: Db, schema: string, commands: readonly WalletCommand[]): Promise<WalletState> {
  const s = `"${schema}"`;
  const state = initialWalletState();
  const withdrawalIds = commands.flatMap((c) => ('withdrawalId' in c.payload ? [c.payload.withdrawalId] : []));
  const depositKeys = commands.flatMap((c) => (c.type === 'ReportDeposit' ? [depositKey(c.payload)] : []));
  const accounts = commands.flatMap((c) => (c.type === 'AddWithdrawalAddress' ? [c.payload.accountId] : []));
  const entryIds = commands.flatMap((c) => (c.type === 'RemoveWithdrawalAddress' ? [c.payload.entryId] : []));
  if (withdrawalIds.length > 0) {
    const rows: { record: WithdrawalRecord }[] = await db.query(
      `SELECT record FROM ${s}.withdrawals WHERE withdrawal_id = ANY($1::bigint[])`,
      [withdrawalIds],
    );
    for (const { record } of rows) state.withdrawals.set(record.withdrawalId, record);
  }
  if (depositKeys.length > 0) {
    const rows: { record: DepositRecord }[] = await db.query(
      `SELECT record FROM ${s}.deposits WHERE deposit_key = ANY($1::text[])`,
      [depositKeys],
    );
    for (const { record } of rows) state.deposits.set(depositKey(record), record);
  }
  if (accounts.length > 0 || entryIds.length > 0) {
    const rows: { record: WithdrawalAddressEntry }[] = await db.query(
      `SELECT record FROM ${s}.withdrawal_addresses WHERE account_id = ANY($1::bigint[]) OR id = ANY($2::bigint[])`,
      [accounts, entryIds],
    );
    for (const { record } of rows) state.addresses.set(record.id, record);
  }
  return state;
}

/** Every record of the wallet's tables, as one state: what a replay compares. */
export async function loadWalletState(
  db: { query(sql: string): Promise<unknown> },
  schema: string,
): Promise<WalletState> {
  const s = `"${schema}"`;
  const state = initialWalletState();
  for (const { record } of (await db.query(`SELECT record FROM ${s}.withdrawals`)) as { record: WithdrawalRecord }[])
    state.withdrawals.set(record.withdrawalId, record);
  for (const { record } of (await db.query(`SELECT record FROM ${s}.deposits`)) as { record: DepositRecord }[])
    state.deposits.set(depositKey(record), record);
  for (const { record } of (await db.query(`SELECT record FROM ${s}.withdrawal_addresses`)) as {
    record: WithdrawalAddressEntry;
  }[])
    state.addresses.set(record.id, record);
  return state;
}

export async function writeProjection(db: Db, schema: string, events: readonly WalletEvent[]): Promise<void> {
  const s = `"${schema}"`;
  const withdrawals = new Map<string, WithdrawalRecord>();
  const deposits = new Map<string, DepositRecord>();
  for (const event of events) {
    switch (event.type) {
      case 'WithdrawalTracked':
      case 'WithdrawalAdvanced':
      case 'WithdrawalConfirmationsUpdated':
        withdrawals.set(event.payload.withdrawal.withdrawalId, event.payload.withdrawal);
        break;
      case 'DepositReported':
        deposits.set(event.payload.deposit.depositId, event.payload.deposit);
        break;
      case 'WithdrawalAddressAdded': {
        const e = event.payload.entry;
        await db.query(
          `INSERT INTO ${s}.withdrawal_addresses (id, user_id, account_id, token_id, chain_type, address, address_ext, created, record)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [e.id, e.userId, e.accountId, e.tokenId, e.chainType, e.address, e.addressExt, e.created, JSON.stringify(e)],
        );
        break;
      }
      case 'WithdrawalAddressRemoved':
        await db.query(`DELETE FROM ${s}.withdrawal_addresses WHERE id = $1`, [event.payload.entry.id]);
        break;
      case 'WalletCommandRejected':
        break;
      default: {
        const unexpected: never = event;
        throw new Error(`wallet projection: unknown event ${(unexpected as WalletEvent).type}`);
      }
    }
  }
  if (withdrawals.size > 0) {
    const w = [...withdrawals.values()];
    await db.query(
      `INSERT INTO ${s}.withdrawals (withdrawal_id, user_id, account_id, client_order_id, asset, status, time, record)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::smallint[], $7::bigint[], $8::jsonb[])
       ON CONFLICT (withdrawal_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record`,
      [
        w.map((r) => r.withdrawalId),
        w.map((r) => r.userId),
        w.map((r) => r.accountId),
        w.map((r) => r.clientOrderId),
        w.map((r) => r.asset),
        w.map((r) => r.status),
        w.map((r) => r.time),
        w.map((r) => JSON.stringify(r)),
      ],
    );
  }
  if (deposits.size > 0) {
    const d = [...deposits.values()];
    await db.query(
      `INSERT INTO ${s}.deposits (deposit_id, deposit_key, user_id, account_id, asset, status, time, credit_time, record)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::jsonb[])
       ON CONFLICT (deposit_id) DO UPDATE SET status = EXCLUDED.status, credit_time = EXCLUDED.credit_time, record = EXCLUDED.record`,
      [
        d.map((r) => r.depositId),
        d.map(depositKey),
        d.map((r) => r.userId),
        d.map((r) => r.accountId),
        d.map((r) => r.asset),
        d.map((r) => r.status),
        d.map((r) => r.time),
        d.map((r) => r.creditTime ?? null),
        d.map((r) => JSON.stringify(r)),
      ],
    );
  }
}
