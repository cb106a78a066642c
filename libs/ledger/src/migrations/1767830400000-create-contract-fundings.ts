import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The last funding time each partition's fund account settled per symbol: what makes SettleFunding once per interval after a restart too. */
export class CreateContractFundings1767830400000 implements MigrationInterface {
  name = 'CreateContractFundings1767830400000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema!}"`;
    await runner.query(
      `CREATE TABLE ${s}.contract_fundings (fund_account_id bigint NOT NULL, symbol text NOT NULL, funding_time bigint NOT NULL, PRIMARY KEY (fund_account_id, symbol))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${runner.connection.driver.schema!}".contract_fundings`);
  }
}
