import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Market history that outlives memory (trades, candles), the newest book cut per partition and
 * the history writer's checkpoints. Amounts are NUMERIC, never floats.
 */
export class CreateMarketDataTables1767398400000 implements MigrationInterface {
  name = 'CreateMarketDataTables1767398400000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    await runner.query(`CREATE TABLE ${s}.trades (
      symbol text NOT NULL, trade_id bigint NOT NULL, time bigint NOT NULL, price numeric NOT NULL, qty numeric NOT NULL,
      is_buyer_maker boolean NOT NULL, PRIMARY KEY (symbol, trade_id))`);
    await runner.query(`CREATE INDEX trades_symbol_time ON ${s}.trades (symbol, time)`);
    await runner.query(`CREATE TABLE ${s}.klines (
      symbol text NOT NULL, interval text NOT NULL, open_time bigint NOT NULL,
      open numeric NOT NULL, high numeric NOT NULL, low numeric NOT NULL, close numeric NOT NULL,
      volume numeric NOT NULL, quote_volume numeric NOT NULL, trades integer NOT NULL,
      taker_buy_volume numeric NOT NULL, taker_buy_quote_volume numeric NOT NULL,
      PRIMARY KEY (symbol, interval, open_time))`);
    await runner.query(
      `CREATE TABLE ${s}.checkpoints (partition integer PRIMARY KEY, next_offset bigint NOT NULL, event_time bigint NOT NULL)`,
    );
    await runner.query(
      `CREATE TABLE ${s}.book_cuts (partition integer PRIMARY KEY, next_offset bigint NOT NULL, cut jsonb NOT NULL)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema}"`;
    for (const table of ['book_cuts', 'checkpoints', 'klines', 'trades'])
      await runner.query(`DROP TABLE ${s}.${table}`);
  }
}
