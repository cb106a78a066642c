import 'reflect-metadata';
import { AdminService } from '@exchange/api-gateway';
import { openInfrastructure, startApp } from '@exchange/bootstrap';
import { createLogger } from '@exchange/platform';
import { demoBanner, ensureDemoUser } from './demo-user';
import { exchangeModules } from './exchange-modules';

/** `npm start`: every service in one process on the embedded adapters (or on Kafka if configured). */
async function main(): Promise<void> {
  const infrastructure = await openInfrastructure({ service: 'exchange', mode: 'embedded', needsDatabase: true });
  const app = await startApp(infrastructure, exchangeModules);
  const demo = await ensureDemoUser(app.get(AdminService), infrastructure.config.DATA_DIR);
  process.stdout.write(demoBanner(demo, infrastructure.config.ADMIN_TOKEN!, infrastructure.config.PORT) + '\n');
}

main().catch((error: unknown) => {
  createLogger('exchange').fatal({ err: error }, 'failed to start');
  process.exit(1);
});
