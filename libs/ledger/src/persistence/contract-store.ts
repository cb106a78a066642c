import type { ContractOrderRecord, PositionAfter } from '@exchange/contracts';
import type { DataSource } from 'typeorm';
import { endClientId, indexClientId } from '../domain/contracts/contract-journal-fold';
import { fundingCursorKey, fundingKey, setBalance, setOrder, setPosition } from '../domain/contracts/contract-state';
import { Money } from '../domain/ledger-money';
import type { LedgerState } from '../domain/ledger-state';
import { forgetContracts } from '../processing/partition-contracts';

/**
 * Replaces the contracts fold of one partition's accounts with what PostgreSQL holds: their USDT,
 * positions and open contract orders (and the partition's fee, insurance and clearing accounts'), the
 * client ids of orders ended within the retry window at `now`, its last funding times (and the
 * cursor of a settlement decided in parts) and marks, the losses no margin paid and the open
 * orders' cancel-requested marks, as the fold had them.
 */
export async function loadContracts(
  dataSource: DataSource,
  schema: string,
  state: LedgerState,
  accountIds: ReadonlySet<string>,
  systemAccountIds: readonly string[],
  now: number,
): Promise<void> {
  const c = state.contracts;
  const owned = new Set([...accountIds, ...systemAccountIds]);
  forgetContracts(state, owned);
  const ids = [...owned];
  const s = `"${schema}"`;
  const balances: { account_id: string; free: string; locked: string; position_margin: string }[] =
    await dataSource.query(
      `SELECT account_id::text, free::text, locked::text, position_margin::text FROM ${s}.contract_balances WHERE account_id = ANY($1::bigint[])`,
      [ids],
    );
  for (const b of balances)
    setBalance(c, { accountId: b.account_id, free: b.free, locked: b.locked, positionMargin: b.position_margin });
  const positions: { record: PositionAfter }[] = await dataSource.query(
    `SELECT record FROM ${s}.contract_positions WHERE account_id = ANY($1::bigint[])`,
    [ids],
  );
  for (const { record } of positions) setPosition(c, record);
  // An order's update_time is its last event's time: for an ended order, when it ended (the fold's final time).
  const ended: { record: ContractOrderRecord; update_time: string }[] = await dataSource.query(
    `SELECT record, update_time::text FROM ${s}.contract_orders WHERE account_id = ANY($1::bigint[]) AND status NOT IN ('NEW', 'PARTIALLY_FILLED')
       AND client_order_id IS NOT NULL AND update_time > $2 ORDER BY update_time, order_id`,
    [ids, now - state.clientIdWindowMs],
  );
  for (const { record, update_time } of ended) {
    indexClientId(state, record);
    endClientId(state, record, Number(update_time));
  }
  const orders: { record: ContractOrderRecord; cancel_requested: boolean; cancel_reason: 'LIQUIDATION' | null }[] =
    await dataSource.query(
      `SELECT record, cancel_requested, cancel_reason FROM ${s}.contract_orders WHERE account_id = ANY($1::bigint[]) AND status IN ('NEW', 'PARTIALLY_FILLED') ORDER BY order_id`,
      [ids],
    );
  for (const { record, cancel_requested, cancel_reason } of orders) {
    const marks = cancel_requested ? { cancelRequested: true as const } : {};
    setOrder(c, { ...record, ...marks, ...(cancel_reason === null ? {} : { cancelReason: cancel_reason }) });
    indexClientId(state, record);
  }
  const fundings: { fund_account_id: string; symbol: string; funding_time: string }[] = await dataSource.query(
    `SELECT fund_account_id::text, symbol, funding_time::text FROM ${s}.contract_fundings WHERE fund_account_id = ANY($1::bigint[])`,
    [ids],
  );
  for (const f of fundings) c.fundings.set(fundingKey(f.symbol, f.fund_account_id), Number(f.funding_time));
  const cursors: { fund_account_id: string; symbol: string; funding_time: string; after: string; part: number }[] =
    await dataSource.query(
      `SELECT fund_account_id::text, symbol, funding_time::text, after, part FROM ${s}.contract_funding_cursors WHERE fund_account_id = ANY($1::bigint[])`,
      [ids],
    );
  for (const r of cursors) {
    const cursor = { symbol: r.symbol, fundAccountId: r.fund_account_id, fundingTime: Number(r.funding_time) };
    c.fundingCursors.set(fundingCursorKey(cursor.symbol, cursor.fundAccountId, cursor.fundingTime), {
      ...cursor,
      after: r.after,
      part: r.part,
    });
  }
  const uncovered: { account_id: string; amount: string }[] = await dataSource.query(
    `SELECT account_id::text, amount::text FROM ${s}.contract_uncovered WHERE account_id = ANY($1::bigint[])`,
    [ids],
  );
  for (const u of uncovered) c.uncovered.set(u.account_id, new Money(u.amount));
  const marks: { fund_account_id: string; symbol: string; mark_price: string }[] = await dataSource.query(
    `SELECT fund_account_id::text, symbol, mark_price::text FROM ${s}.contract_marks WHERE fund_account_id = ANY($1::bigint[])`,
    [ids],
  );
  for (const m of marks) c.marks.set(fundingKey(m.symbol, m.fund_account_id), new Money(m.mark_price));
}
