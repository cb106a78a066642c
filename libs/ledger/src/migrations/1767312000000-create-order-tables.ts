import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The account side of orders and trades: what order queries, openOrders and myTrades read. */
export class CreateOrderTables1767312000000 implements MigrationInterface {
  name = 'CreateOrderTables1767312000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(`CREATE TABLE ${s}.orders (
      order_id bigint PRIMARY KEY, account_id bigint NOT NULL, user_id bigint NOT NULL, client_order_id text NOT NULL, symbol text NOT NULL,
      status text NOT NULL, time bigint NOT NULL, update_time bigint NOT NULL, final_time bigint, record jsonb NOT NULL)`);
    await runner.query(`CREATE INDEX orders_account ON ${s}.orders (account_id, order_id)`);
    await runner.query(`CREATE INDEX orders_client_id ON ${s}.orders (account_id, client_order_id)`);
    await runner.query(`CREATE INDEX orders_live ON ${s}.orders (user_id) WHERE final_time IS NULL`);
    await runner.query(`CREATE TABLE ${s}.trades (
      trade_id bigint NOT NULL, account_id bigint NOT NULL, order_id bigint NOT NULL, symbol text NOT NULL, time bigint NOT NULL, record jsonb NOT NULL,
      PRIMARY KEY (trade_id, account_id))`);
    await runner.query(`CREATE INDEX trades_account ON ${s}.trades (account_id, trade_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(`DROP TABLE ${s}.trades`);
    await runner.query(`DROP TABLE ${s}.orders`);
  }
}
