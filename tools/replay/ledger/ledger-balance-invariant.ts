import type { DataSource } from 'typeorm';

/**
 * The operators' invariant (API-DECISIONS.md, Orders) on one ledger schema: per asset, what all
 * balances hold (fee accounts included, free + locked; a contracts account's USDT with its
 * position margin too) equals what deposits brought in minus
 * what withdrawals took out, and no balance is negative. Answers the problems, none when it holds.
 */
export async function balanceInvariantProblems(ds: DataSource, schema: string): Promise<string[]> {
  const s = `"${schema}"`;
  const negative: { account_id: string; asset: string; free: string; locked: string }[] = await ds.query(
    `SELECT account_id::text, asset, free::text, locked::text FROM ${s}.balances WHERE free < 0 OR locked < 0 LIMIT 5`,
  );
  const negativeContracts: { account_id: string; free: string; locked: string; position_margin: string }[] =
    await ds.query(
      `SELECT account_id::text, free::text, locked::text, position_margin::text FROM ${s}.contract_balances WHERE free < 0 OR locked < 0 OR position_margin < 0 LIMIT 5`,
    );
  const unbalanced: { asset: string; held: string; entered: string }[] = await ds.query(`
    SELECT coalesce(b.asset, f.asset) AS asset, coalesce(b.held, 0)::text AS held, coalesce(f.entered, 0)::text AS entered
    FROM (SELECT asset, sum(held) AS held FROM (
            SELECT asset, free + locked AS held FROM ${s}.balances
            UNION ALL SELECT 'USDT', free + locked + position_margin FROM ${s}.contract_balances) h GROUP BY asset) b
    FULL JOIN (SELECT asset, sum(change) AS entered FROM ${s}.balance_flows WHERE flow_type IN ('DEPOSIT', 'WITHDRAW') GROUP BY asset) f ON f.asset = b.asset
    WHERE coalesce(b.held, 0) <> coalesce(f.entered, 0)`);
  return [
    ...negative.map((b) => `account ${b.account_id} ${b.asset} is negative (free ${b.free}, locked ${b.locked})`),
    ...negativeContracts.map(
      (b) =>
        `contracts account ${b.account_id} USDT is negative (free ${b.free}, locked ${b.locked}, position margin ${b.position_margin})`,
    ),
    ...unbalanced.map((u) => `${u.asset}: balances hold ${u.held}, deposits - withdrawals are ${u.entered}`),
  ];
}
