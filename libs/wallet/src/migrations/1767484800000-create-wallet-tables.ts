import { createBookkeepingTables } from '@exchange/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The wallet's read models (withdrawals, deposits, address books), its outbox and input checkpoints. */
export class CreateWalletTables1767484800000 implements MigrationInterface {
  name = 'CreateWalletTables1767484800000';

  async up(runner: QueryRunner): Promise<void> {
    const schema = runner.connection.driver.schema!;
    const s = `"${schema}"`;
    await runner.query(`CREATE TABLE ${s}.withdrawals (
      withdrawal_id bigint PRIMARY KEY, user_id bigint NOT NULL, account_id bigint NOT NULL, client_order_id text NOT NULL,
      asset text NOT NULL, status smallint NOT NULL, time bigint NOT NULL, record jsonb NOT NULL)`);
    await runner.query(`CREATE INDEX withdrawals_account ON ${s}.withdrawals (account_id, withdrawal_id)`);
    await runner.query(`CREATE INDEX withdrawals_client_id ON ${s}.withdrawals (account_id, client_order_id)`);
    await runner.query(`CREATE INDEX withdrawals_processing ON ${s}.withdrawals (status) WHERE status IN (5, 8)`);
    await runner.query(`CREATE TABLE ${s}.deposits (
      deposit_id bigint PRIMARY KEY, deposit_key text NOT NULL UNIQUE, user_id bigint NOT NULL, account_id bigint NOT NULL, asset text NOT NULL,
      status text NOT NULL, time bigint NOT NULL, credit_time bigint, record jsonb NOT NULL)`);
    await runner.query(`CREATE INDEX deposits_account ON ${s}.deposits (account_id, deposit_id)`);
    await runner.query(`CREATE TABLE ${s}.withdrawal_addresses (
      id bigint PRIMARY KEY, user_id bigint NOT NULL, account_id bigint NOT NULL, token_id text NOT NULL, chain_type text NOT NULL,
      address text NOT NULL, address_ext text NOT NULL, created bigint NOT NULL, record jsonb NOT NULL)`);
    await runner.query(`CREATE INDEX withdrawal_addresses_account ON ${s}.withdrawal_addresses (account_id, token_id)`);
    await createBookkeepingTables(runner, schema);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    for (const table of [
      'outbox',
      'checkpoints',
      'processed_commands',
      'withdrawal_addresses',
      'deposits',
      'withdrawals',
    ])
      await runner.query(`DROP TABLE ${s}.${table}`);
  }
}
