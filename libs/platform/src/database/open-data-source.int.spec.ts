import { randomUUID } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { realServiceAddress } from '../../../../test/support/real-services';
import { openDataSource } from './open-data-source';

const url = realServiceAddress('DATABASE_URL', 'TypeORM data sources on PostgreSQL');

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE "${runner.connection.driver.schema}".notes (id serial PRIMARY KEY, body text NOT NULL)`,
    );
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${runner.connection.driver.schema}".notes`);
  }
}

(url ? describe : describe.skip)('openDataSource on PostgreSQL', () => {
  it('creates the schema, applies each migration once, and leaves other schemas alone', async () => {
    const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const first = await openDataSource({ url: url!, schema, entities: [], migrations: [CreateNotes1700000000000] });
    await first.query(`INSERT INTO "${schema}".notes (body) VALUES ('a')`);
    await first.destroy();

    const second = await openDataSource({ url: url!, schema, entities: [], migrations: [CreateNotes1700000000000] });
    expect(await second.query(`SELECT body FROM "${schema}".notes`)).toEqual([{ body: 'a' }]);
    expect(await second.query(`SELECT name FROM "${schema}".migrations`)).toEqual([
      { name: 'CreateNotes1700000000000' },
    ]);
    await second.query(`DROP SCHEMA "${schema}" CASCADE`);
    await second.destroy();
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openDataSource({ url: url!, schema: 'x"; DROP', entities: [], migrations: [] })).rejects.toThrow(
      'invalid schema name',
    );
  });
});
