import type { DataSource } from 'typeorm';

/**
 * The operators' invariant (API-DECISIONS.md, Orders) on one ledger schema: per asset, what all
 * balances hold (fee accounts included, free + locked) equals what deposits brought in minus
 * what withdrawals took out, and no balance is negative. Answers the problems, none when it holds.
 */
export async function balanceInvariantProblems(ds: DataSource, schema: string): Promise<string[]> {
  const s = `"${schema}"`;
  const negative: { account_id: string; asset: string; free: string; locked: string }[] = await ds.query(
    `SELECT account_id::text, asset, free::text, locked::text FROM ${s}.balances WHERE free < 0 OR locked < 0 LIMIT 5`,
  );
  const unbalanced: { asset: string; held: string; entered: string }[] = await ds.query(`
    SELECT coalesce(b.asset, f.asset) AS asset, coalesce(b.held, 0)::text AS held, coalesce(f.entered, 0)::text AS entered
    FROM (SELECT asset, sum(free + locked) AS held FROM ${s}.balances GROUP BY asset) b
    FULL JOIN (SELECT asset, sum(change) AS entered FROM ${s}.balance_flows WHERE flow_type IN ('DEPOSIT', 'WITHDRAW') GROUP BY asset) f ON f.asset = b.asset
    WHERE coalesce(b.held, 0) <> coalesce(f.entered, 0)`);
  return [
    ...negative.map((b) => `account ${b.account_id} ${b.asset} is negative (free ${b.free}, locked ${b.locked})`),
    ...unbalanced.map((u) => `${u.asset}: balances hold ${u.held}, deposits - withdrawals are ${u.entered}`),
  ];
}
