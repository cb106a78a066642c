// Keeps an embedded PostgreSQL running for a test run when DATABASE_URL is unset: prints its URL
// as the first stdout line, stops it on SIGTERM. Started by test/support/global-setup.ts.
import { startEmbeddedPostgres } from '../../libs/platform/src/database/embedded-postgres';
import { createLogger } from '../../libs/platform/src/logging/logger';

async function main(): Promise<void> {
  const [dir, port] = process.argv.slice(2);
  const db = await startEmbeddedPostgres({
    dir: dir!,
    port: Number(port),
    database: 'exchange',
    logger: createLogger('test-postgres', 'silent'),
  });
  process.stdout.write(db.url + '\n');
  const stop = (): void => void db.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
