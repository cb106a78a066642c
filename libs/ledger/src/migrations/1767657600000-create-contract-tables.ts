import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contracts accounts' projection: USDT (free, locked by open orders, position margin),
 * positions (one LONG and one SHORT per symbol), contract orders and each account's side of
 * contract trades. Flows (PNL, FEE, transfers) go to balance_flows with the spot ones.
 */
export class CreateContractTables1767657600000 implements MigrationInterface {
  name = 'CreateContractTables1767657600000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(
      `CREATE TABLE ${s}.contract_balances (account_id bigint PRIMARY KEY, free numeric NOT NULL, locked numeric NOT NULL, position_margin numeric NOT NULL)`,
    );
    await runner.query(`CREATE TABLE ${s}.contract_positions (
      account_id bigint NOT NULL, symbol text NOT NULL, side text NOT NULL, size numeric NOT NULL, update_time bigint NOT NULL, record jsonb NOT NULL,
      PRIMARY KEY (account_id, symbol, side))`);
    await runner.query(`CREATE TABLE ${s}.contract_orders (
      order_id bigint PRIMARY KEY, account_id bigint NOT NULL, user_id bigint NOT NULL, client_order_id text, symbol text NOT NULL,
      status text NOT NULL, time bigint NOT NULL, update_time bigint NOT NULL, record jsonb NOT NULL)`);
    await runner.query(`CREATE INDEX contract_orders_account ON ${s}.contract_orders (account_id, order_id)`);
    await runner.query(`CREATE INDEX contract_orders_client_id ON ${s}.contract_orders (account_id, client_order_id)`);
    await runner.query(
      `CREATE INDEX contract_orders_open ON ${s}.contract_orders (user_id) WHERE status IN ('NEW', 'PARTIALLY_FILLED')`,
    );
    // The gateway resolves OPPONENT / QUEUE / OVER against the open orders of a symbol.
    await runner.query(
      `CREATE INDEX contract_orders_book ON ${s}.contract_orders (symbol) WHERE status IN ('NEW', 'PARTIALLY_FILLED')`,
    );
    await runner.query(`CREATE TABLE ${s}.contract_trades (
      trade_id bigint NOT NULL, account_id bigint NOT NULL, order_id bigint NOT NULL, symbol text NOT NULL, time bigint NOT NULL, record jsonb NOT NULL,
      PRIMARY KEY (trade_id, account_id))`);
    await runner.query(`CREATE INDEX contract_trades_account ON ${s}.contract_trades (account_id, trade_id)`);
    await runner.query(`CREATE INDEX contract_trades_order ON ${s}.contract_trades (order_id)`);
    await runner.query(`CREATE INDEX contract_trades_symbol ON ${s}.contract_trades (symbol, trade_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    for (const table of ['contract_trades', 'contract_orders', 'contract_positions', 'contract_balances'])
      await runner.query(`DROP TABLE ${s}.${table}`);
  }
}
