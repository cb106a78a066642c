import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The last mark price each partition's fund account consumed per symbol: what `positions` values positions at, and a partition reloads. */
export class CreateContractMarks1767916800000 implements MigrationInterface {
  name = 'CreateContractMarks1767916800000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema!}"`;
    await runner.query(
      `CREATE TABLE ${s}.contract_marks (fund_account_id bigint NOT NULL, symbol text NOT NULL, mark_price numeric NOT NULL, index_price numeric NOT NULL, at bigint NOT NULL, PRIMARY KEY (fund_account_id, symbol))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${runner.connection.driver.schema!}".contract_marks`);
  }
}
