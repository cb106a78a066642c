import { SYSTEM_USER_ID_BASE } from '../domain/ledger-ids';
import { changedOrder, isContractJournalEvent, orderChangeFields, placedOrder } from '@exchange/contracts';
import type {
  AccountRecord,
  FlowEntry,
  LedgerJournalEvent,
  LedgerOrderRecord,
  LedgerTradeRecord,
  LedgerWithdrawalRecord,
  OrderOutcomeApplied,
  Permission,
  TradeSettled,
} from '@exchange/contracts';
import { feeAccountRecord } from '../domain/ledger-state';
import type { QueryRunner } from 'typeorm';
import { tradeFlows } from '../domain/trade-flows';
import { addContractRows, type ContractRows, emptyContractRows, writeContractRows } from './contract-projection';

/**
 * The rows a list of ledger events leaves in PostgreSQL. The same function serves the live ledger
 * (inside the batch's transaction) and a rebuild from `ledger.events`, and every write is
 * idempotent, so a replayed event changes nothing it already changed.
 */
export interface ProjectionRows {
  users: { userId: string; name: string; partition: number; created: number }[];
  userSeq: Map<string, number>;
  accounts: (AccountRecord & { created: number })[];
  flags: Map<string, { canTrade: boolean; canWithdraw: boolean; canDeposit: boolean }>;
  balances: Map<string, { accountId: string; asset: string; free: string; locked: string }>;
  flows: (FlowEntry & { created: number })[];
  apiKeys: {
    apiKey: string;
    accountId: string;
    userId: string;
    permissions: Permission[];
    secretCiphertext: string;
    created: number;
  }[];
  revokedKeys: { apiKey: string; at: number }[];
  /** The last record of each order placed (or whose cancel was requested) in these events. */
  orders: Map<string, LedgerOrderRecord>;
  /** For an order whose record is in an earlier batch's row: the fields these events moved, merged into the row. */
  orderChanges: Map<string, OrderChange>;
  trades: LedgerTradeRecord[];
  /** The last record of each withdrawal the events touched. */
  withdrawals: Map<string, LedgerWithdrawalRecord>;
  contracts: ContractRows;
}

export function projectionRows(
  events: readonly LedgerJournalEvent[],
  partitionOf: (userId: string) => number,
): ProjectionRows {
  const rows: ProjectionRows = {
    users: [],
    userSeq: new Map(),
    accounts: [],
    flags: new Map(),
    balances: new Map(),
    flows: [],
    apiKeys: [],
    revokedKeys: [],
    orders: new Map(),
    orderChanges: new Map(),
    trades: [],
    withdrawals: new Map(),
    contracts: emptyContractRows(),
  };
  for (const event of events) {
    const { userId, seq } = event.payload;
    // A partition's system user has no users row (its sequence counts log positions, beyond an int).
    if (Number(userId) < SYSTEM_USER_ID_BASE) rows.userSeq.set(userId, Math.max(seq, rows.userSeq.get(userId) ?? 0));
    if (isContractJournalEvent(event)) {
      for (const f of addContractRows(rows.contracts, event)) rows.flows.push(created(f, event.ts));
      continue;
    }
    switch (event.type) {
      case 'UserCreated':
        rows.users.push({ userId, name: event.payload.name, partition: partitionOf(userId), created: event.ts });
        for (const account of event.payload.accounts) rows.accounts.push(created(account, event.ts));
        break;
      case 'SubAccountCreated':
        rows.accounts.push(created(event.payload.account, event.ts));
        break;
      case 'ApiKeyCreated':
        rows.apiKeys.push({
          apiKey: event.payload.apiKey,
          accountId: event.payload.accountId,
          userId,
          permissions: event.payload.permissions,
          secretCiphertext: event.payload.secretCiphertext,
          created: event.ts,
        });
        break;
      case 'ApiKeyRevoked':
        rows.revokedKeys.push({ apiKey: event.payload.apiKey, at: event.ts });
        break;
      case 'DepositCredited':
      case 'FundsTransferred':
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        for (const f of event.payload.flows) rows.flows.push(created(f, event.ts));
        break;
      case 'AccountFlagsSet':
        rows.flags.set(event.payload.accountId, {
          canTrade: event.payload.canTrade,
          canWithdraw: event.payload.canWithdraw,
          canDeposit: event.payload.canDeposit,
        });
        break;
      case 'OrderPlaced':
        rows.orders.set(event.payload.order.orderId, placedOrder(event));
        rows.orderChanges.delete(event.payload.order.orderId);
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        break;
      case 'OrderOutcomeApplied':
        addOrderChange(rows, event);
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        break;
      case 'OrderCancelRequested':
        rows.orders.set(event.payload.order.orderId, event.payload.order);
        rows.orderChanges.delete(event.payload.order.orderId);
        break;
      case 'TradeSettled':
        addOrderChange(rows, event);
        rows.trades.push(event.payload.trade);
        rows.accounts.push(created(feeAccountRecord(event.payload.feeAccountId), event.ts));
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        for (const f of event.payload.flows ?? tradeFlows(event)) rows.flows.push(created(f, event.ts));
        break;
      case 'WithdrawalHeld':
      case 'WithdrawalReleased':
        rows.withdrawals.set(event.payload.withdrawal.withdrawalId, event.payload.withdrawal);
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        break;
      case 'WithdrawalSettled':
        rows.withdrawals.set(event.payload.withdrawal.withdrawalId, event.payload.withdrawal);
        rows.accounts.push(created(feeAccountRecord(event.payload.feeAccountId), event.ts));
        for (const b of event.payload.balances) rows.balances.set(`${b.accountId}|${b.asset}`, b);
        for (const f of event.payload.flows) rows.flows.push(created(f, event.ts));
        break;
      case 'WithdrawalRepeated':
      case 'CommandRejected':
        break;
      default: {
        const unexpected: never = event;
        throw new Error(`ledger projection: unknown event ${(unexpected as LedgerJournalEvent).type}`);
      }
    }
  }
  return rows;
}

type OrderChange = ReturnType<typeof orderChangeFields>;

/** A row with its creation time; Object.assign, as V8 adds properties to a spread's copy on its slow path (~2 µs each). */
function created<T extends object>(row: T, ts: number): T & { created: number } {
  return Object.assign({}, row, { created: ts });
}

/** A trade leg or outcome of an order: into its record when these events hold it, else into the change of its row. */
function addOrderChange(rows: ProjectionRows, event: TradeSettled | OrderOutcomeApplied): void {
  const orderId = event.payload.order.orderId;
  const record = rows.orders.get(orderId);
  if (record) rows.orders.set(orderId, changedOrder(record, event));
  else rows.orderChanges.set(orderId, Object.assign({}, rows.orderChanges.get(orderId), orderChangeFields(event)));
}

/**
 * Writes the rows with one statement per table, whatever the batch size. The hot tables (one row
 * or more per order) take their rows as one JSON text, expanded by PostgreSQL: PostgreSQL arrays
 * are built by the driver element by element, each escaped with two regular-expression passes,
 * and were a tenth of the exchange's allocations under order load.
 */
export async function writeProjection(runner: QueryRunner, schema: string, rows: ProjectionRows): Promise<void> {
  const s = `"${schema}"`;
  if (rows.users.length > 0) {
    await runner.query(
      `INSERT INTO ${s}.users (user_id, name, seq, partition, created)
       SELECT u, n, 0, p, c FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[]) AS t(u, n, p, c)
       ON CONFLICT (user_id) DO NOTHING`,
      [
        rows.users.map((u) => u.userId),
        rows.users.map((u) => u.name),
        rows.users.map((u) => u.partition),
        rows.users.map((u) => u.created),
      ],
    );
  }
  if (rows.accounts.length > 0) {
    const a = rows.accounts;
    await runner.query(
      `INSERT INTO ${s}.accounts (account_id, user_id, account_type, account_index, account_name, can_trade, can_withdraw, can_deposit, created)
       SELECT id, u, t, i, n, true, true, true, c FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::int[], $5::text[], $6::bigint[]) AS r(id, u, t, i, n, c)
       ON CONFLICT (account_id) DO NOTHING`,
      [
        a.map((r) => r.accountId),
        a.map((r) => r.userId),
        a.map((r) => r.accountType),
        a.map((r) => r.accountIndex),
        a.map((r) => r.accountName),
        a.map((r) => r.created),
      ],
    );
  }
  if (rows.flags.size > 0) {
    const ids = [...rows.flags.keys()];
    const f = [...rows.flags.values()];
    await runner.query(
      `UPDATE ${s}.accounts a SET can_trade = r.t, can_withdraw = r.w, can_deposit = r.d
       FROM unnest($1::bigint[], $2::boolean[], $3::boolean[], $4::boolean[]) AS r(id, t, w, d) WHERE a.account_id = r.id`,
      [ids, f.map((x) => x.canTrade), f.map((x) => x.canWithdraw), f.map((x) => x.canDeposit)],
    );
  }
  if (rows.balances.size > 0) {
    await runner.query(
      `INSERT INTO ${s}.balances (account_id, asset, free, locked)
       SELECT "accountId", asset, free, locked FROM jsonb_to_recordset($1::jsonb) AS r("accountId" bigint, asset text, free numeric, locked numeric)
       ON CONFLICT (account_id, asset) DO UPDATE SET free = EXCLUDED.free, locked = EXCLUDED.locked`,
      [JSON.stringify([...rows.balances.values()])],
    );
  }
  if (rows.flows.length > 0) {
    await runner.query(
      `INSERT INTO ${s}.balance_flows (flow_id, account_id, asset, flow_type, change, total, created)
       SELECT "flowId", "accountId", asset, "flowType", change, total, created
       FROM jsonb_to_recordset($1::jsonb) AS r("flowId" bigint, "accountId" bigint, asset text, "flowType" text, change numeric, total numeric, created bigint)
       ON CONFLICT (flow_id) DO NOTHING`,
      [JSON.stringify(rows.flows)],
    );
  }
  for (const k of rows.apiKeys) {
    await runner.query(
      `INSERT INTO ${s}.api_keys (api_key, account_id, user_id, permissions, secret_ciphertext, created) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (api_key) DO NOTHING`,
      [k.apiKey, k.accountId, k.userId, k.permissions, k.secretCiphertext, k.created],
    );
  }
  for (const k of rows.revokedKeys) {
    await runner.query(`UPDATE ${s}.api_keys SET revoked_at = $2 WHERE api_key = $1 AND revoked_at IS NULL`, [
      k.apiKey,
      k.at,
    ]);
  }
  if (rows.orders.size > 0) {
    await runner.query(
      `INSERT INTO ${s}.orders (order_id, account_id, user_id, client_order_id, symbol, status, time, update_time, final_time, record)
       SELECT r."orderId", r."accountId", r."userId", r."clientOrderId", r.symbol, r.status, r.time, r."updateTime", r."finalTime", e
       FROM jsonb_array_elements($1::jsonb) AS e,
         jsonb_to_record(e) AS r("orderId" bigint, "accountId" bigint, "userId" bigint, "clientOrderId" text, symbol text, status text, time bigint, "updateTime" bigint, "finalTime" bigint)
       ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, update_time = EXCLUDED.update_time, final_time = EXCLUDED.final_time, record = EXCLUDED.record`,
      [JSON.stringify([...rows.orders.values()])],
    );
  }
  if (rows.orderChanges.size > 0) {
    // Absolute values merged into the row's record: writing a change again leaves the row as it was.
    await runner.query(
      `UPDATE ${s}.orders o SET status = r.status, update_time = r."updateTime", final_time = coalesce(r."finalTime", o.final_time), record = o.record || e
       FROM jsonb_array_elements($1::jsonb) AS e,
         jsonb_to_record(e) AS r("orderId" bigint, status text, "updateTime" bigint, "finalTime" bigint)
       WHERE o.order_id = r."orderId"`,
      [JSON.stringify([...rows.orderChanges.values()])],
    );
  }
  if (rows.trades.length > 0) {
    await runner.query(
      `INSERT INTO ${s}.trades (trade_id, account_id, order_id, symbol, time, record)
       SELECT r."tradeId", r."accountId", r."orderId", r.symbol, r.time, e
       FROM jsonb_array_elements($1::jsonb) AS e,
         jsonb_to_record(e) AS r("tradeId" bigint, "accountId" bigint, "orderId" bigint, symbol text, time bigint)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(rows.trades)],
    );
  }
  if (rows.withdrawals.size > 0) {
    const w = [...rows.withdrawals.values()];
    await runner.query(
      `INSERT INTO ${s}.withdrawals (withdrawal_id, account_id, user_id, client_order_id, status, record)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::jsonb[])
       ON CONFLICT (withdrawal_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record`,
      [
        w.map((r) => r.withdrawalId),
        w.map((r) => r.accountId),
        w.map((r) => r.userId),
        w.map((r) => r.clientOrderId),
        w.map((r) => r.status),
        w.map((r) => JSON.stringify(r)),
      ],
    );
  }
  await writeContractRows(runner, schema, rows.contracts);
  if (rows.userSeq.size > 0) {
    await runner.query(
      `UPDATE ${s}.users u SET seq = GREATEST(u.seq, r.seq) FROM unnest($1::bigint[], $2::int[]) AS r(id, seq) WHERE u.user_id = r.id`,
      [[...rows.userSeq.keys()], [...rows.userSeq.values()]],
    );
  }
}
