import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The ledger's projections, outbox and input checkpoints. Amounts are NUMERIC: never floats. */
export class CreateLedgerTables1767225600000 implements MigrationInterface {
  name = 'CreateLedgerTables1767225600000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(`CREATE TABLE ${s}.users (
      user_id bigint PRIMARY KEY, name text NOT NULL, seq integer NOT NULL, partition integer NOT NULL, created bigint NOT NULL)`);
    await runner.query(`CREATE INDEX users_partition ON ${s}.users (partition)`);
    await runner.query(`CREATE TABLE ${s}.accounts (
      account_id bigint PRIMARY KEY, user_id bigint NOT NULL, account_type smallint NOT NULL, account_index integer NOT NULL,
      account_name text NOT NULL, can_trade boolean NOT NULL, can_withdraw boolean NOT NULL, can_deposit boolean NOT NULL, created bigint NOT NULL)`);
    await runner.query(`CREATE INDEX accounts_user ON ${s}.accounts (user_id)`);
    await runner.query(`CREATE TABLE ${s}.balances (
      account_id bigint NOT NULL, asset text NOT NULL, free numeric NOT NULL CHECK (free >= 0), locked numeric NOT NULL CHECK (locked >= 0),
      PRIMARY KEY (account_id, asset))`);
    await runner.query(`CREATE TABLE ${s}.balance_flows (
      flow_id bigint PRIMARY KEY, account_id bigint NOT NULL, asset text NOT NULL, flow_type text NOT NULL,
      change numeric NOT NULL, total numeric NOT NULL, created bigint NOT NULL)`);
    await runner.query(`CREATE INDEX balance_flows_account ON ${s}.balance_flows (account_id, flow_id)`);
    await runner.query(`CREATE TABLE ${s}.api_keys (
      api_key text PRIMARY KEY, account_id bigint NOT NULL, user_id bigint NOT NULL, permissions text[] NOT NULL,
      secret_ciphertext text NOT NULL, created bigint NOT NULL, revoked_at bigint)`);
    await runner.query(`CREATE INDEX api_keys_account ON ${s}.api_keys (account_id)`);
    await runner.query(
      `CREATE TABLE ${s}.processed_commands (command_id text PRIMARY KEY, partition integer NOT NULL, input_offset bigint NOT NULL)`,
    );
    await runner.query(
      `CREATE TABLE ${s}.checkpoints (topic text NOT NULL, partition integer NOT NULL, next_offset bigint NOT NULL, PRIMARY KEY (topic, partition))`,
    );
    await runner.query(
      `CREATE TABLE ${s}.outbox (id bigserial PRIMARY KEY, topic text NOT NULL, key text NOT NULL, value text NOT NULL, headers jsonb NOT NULL)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    for (const table of [
      'outbox',
      'checkpoints',
      'processed_commands',
      'api_keys',
      'balance_flows',
      'balances',
      'accounts',
      'users',
    ]) {
      await runner.query(`DROP TABLE ${s}.${table}`);
    }
  }
}
