import { Client } from 'pg';

/**
 * The invariant tests and operators check (API-DECISIONS.md, Orders): per asset, the sum of all
 * balances (the fee account included, free + locked, where held withdrawals sit in locked) equals
 * what deposits brought in minus the quantities that left through the chain (WITHDRAW flows), no
 * balance is negative, and every account's locked amount covers the withdrawals it still holds.
 * Contracts accounts count with their USDT's free, locked and position margin.
 * Throws with the numbers when it does not hold.
 */
export async function assertBalanceInvariant(databaseUrl: string, ledgerSchema: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const s = `"${ledgerSchema}"`;
    const exists = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'balances'`,
      [ledgerSchema],
    );
    if (exists.rowCount === 0) return;
    const negative = await client.query(
      `SELECT account_id, asset, free::text, locked::text FROM ${s}.balances WHERE free < 0 OR locked < 0 LIMIT 5`,
    );
    if (negative.rowCount) throw new Error(`balance invariant: negative balances ${JSON.stringify(negative.rows)}`);
    // A contracts account's USDT (free + locked by orders + position margin) is the contracts projection's.
    const contracts = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'contract_balances'`,
      [ledgerSchema],
    );
    const heldSql =
      `SELECT asset, free + locked AS held FROM ${s}.balances` +
      (contracts.rowCount
        ? ` UNION ALL SELECT 'USDT', free + locked + position_margin FROM ${s}.contract_balances` +
          // Equity, as the contracts domain's invariant: open positions' unrealised PnL at one price sums to Σ short entry values − Σ long entry values
          // (a position the insurance fund took over at the bankruptcy price carries the user's lost margin until the fund closes it).
          ` UNION ALL SELECT 'USDT', coalesce(sum(CASE WHEN record->>'side' = 'LONG' THEN -(record->>'entryValue')::numeric ELSE (record->>'entryValue')::numeric END), 0) FROM ${s}.contract_positions`
        : '');
    if (contracts.rowCount) {
      // The ledger partitions' funding clearing accounts (201–264) alone may be negative: together they are zero up to one unit of USDT's precision each.
      const negativeContracts = await client.query(
        `SELECT account_id, free::text, locked::text, position_margin::text FROM ${s}.contract_balances WHERE (free < 0 OR locked < 0 OR position_margin < 0) AND account_id NOT BETWEEN 201 AND 264 LIMIT 5`,
      );
      if (negativeContracts.rowCount)
        throw new Error(`balance invariant: negative contract balances ${JSON.stringify(negativeContracts.rows)}`);
      const { rows: cleared } = await client.query<{ sum: string }>(
        `SELECT coalesce(sum(free), 0)::text AS sum FROM ${s}.contract_balances WHERE account_id BETWEEN 201 AND 264`,
      );
      if (Math.abs(Number(cleared[0]!.sum)) > 64e-8)
        throw new Error(
          `balance invariant: the funding clearing accounts sum to ${cleared[0]!.sum}, not zero up to rounding`,
        );
    }
    const { rows: broken } = await client.query<{ asset: string; held: string; entered: string }>(`
      SELECT coalesce(b.asset, f.asset) AS asset, coalesce(b.held, 0)::text AS held, coalesce(f.entered, 0)::text AS entered
      FROM (SELECT asset, sum(held) AS held FROM (${heldSql}) h GROUP BY asset) b
      FULL JOIN (SELECT asset, sum(change) AS entered FROM ${s}.balance_flows WHERE flow_type IN ('DEPOSIT', 'WITHDRAW') GROUP BY asset) f ON f.asset = b.asset
      WHERE coalesce(b.held, 0) <> coalesce(f.entered, 0)`);
    if (broken.length > 0)
      throw new Error(`balance invariant: held differs from deposits - withdrawals: ${JSON.stringify(broken)}`);
    const withdrawals = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'withdrawals'`,
      [ledgerSchema],
    );
    if (withdrawals.rowCount === 0) return;
    const { rows: uncovered } = await client.query<{
      account_id: string;
      asset: string;
      held: string;
      locked: string;
    }>(`
      SELECT w.account_id::text, w.asset, w.held::text, coalesce(b.locked, 0)::text AS locked
      FROM (SELECT account_id, record->>'asset' AS asset, sum((record->>'quantity')::numeric + (record->>'fee')::numeric) AS held
            FROM ${s}.withdrawals WHERE status = 'HELD' GROUP BY 1, 2) w
      LEFT JOIN ${s}.balances b ON b.account_id = w.account_id AND b.asset = w.asset
      WHERE coalesce(b.locked, 0) < w.held`);
    if (uncovered.length > 0)
      throw new Error(`balance invariant: locked does not cover held withdrawals: ${JSON.stringify(uncovered)}`);
  } finally {
    await client.end();
  }
}
