import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's tables became a projection of ledger.events, written by their own consumer: its
 * position on ledger.events lives here, in the same transaction as the rows it wrote.
 * (`checkpoints` keeps one row per ledger.commands partition: the input the tables reflect.)
 */
export class ProjectionCheckpoints1767744000000 implements MigrationInterface {
  name = 'ProjectionCheckpoints1767744000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = `"${runner.connection.driver.schema!}"`;
    await runner.query(
      `CREATE TABLE ${s}.projection_checkpoints (topic text NOT NULL, partition integer NOT NULL, next_offset bigint NOT NULL, PRIMARY KEY (topic, partition))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${runner.connection.driver.schema!}".projection_checkpoints`);
  }
}
