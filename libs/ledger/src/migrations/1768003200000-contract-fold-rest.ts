import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the contracts fold keeps and the tables did not, so a partition reloaded from them hashes
 * as its journal does: the losses no margin paid per account (ContractsState.uncovered), an open
 * order's cancel-requested mark and its reason, and the cursors of funding settlements being
 * decided in parts.
 */
export class ContractFoldRest1768003200000 implements MigrationInterface {
  name = 'ContractFoldRest1768003200000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema!}"`;
    await runner.query(`CREATE TABLE ${s}.contract_uncovered (account_id bigint PRIMARY KEY, amount numeric NOT NULL)`);
    await runner.query(
      `ALTER TABLE ${s}.contract_orders ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false, ADD COLUMN cancel_reason text`,
    );
    await runner.query(
      `CREATE TABLE ${s}.contract_funding_cursors (fund_account_id bigint NOT NULL, symbol text NOT NULL, funding_time bigint NOT NULL, after text NOT NULL, part integer NOT NULL, PRIMARY KEY (fund_account_id, symbol, funding_time))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema!}"`;
    await runner.query(`DROP TABLE ${s}.contract_funding_cursors`);
    await runner.query(`ALTER TABLE ${s}.contract_orders DROP COLUMN cancel_requested, DROP COLUMN cancel_reason`);
    await runner.query(`DROP TABLE ${s}.contract_uncovered`);
  }
}
