import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The ledger's side of withdrawals: holds, and the client ids they keep taken. */
export class CreateWithdrawalTables1767398400000 implements MigrationInterface {
  name = 'CreateWithdrawalTables1767398400000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(`CREATE TABLE ${s}.withdrawals (
      withdrawal_id bigint PRIMARY KEY, account_id bigint NOT NULL, user_id bigint NOT NULL, client_order_id text NOT NULL, status text NOT NULL, record jsonb NOT NULL)`);
    await runner.query(`CREATE UNIQUE INDEX withdrawals_client_id ON ${s}.withdrawals (account_id, client_order_id)`);
    await runner.query(`CREATE INDEX withdrawals_user ON ${s}.withdrawals (user_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${runner.connection.driver.schema}".withdrawals`);
  }
}
