import 'reflect-metadata';
import { resolve } from 'node:path';
import { AdminService } from '@exchange/api-gateway';
import { openInfrastructure, startApp } from '@exchange/bootstrap';
import { createLogger, ensureWebBuild, registerWebRoutes } from '@exchange/platform';
import { registerDemoKeyRoute } from './demo-key.route';
import { demoBanner, ensureDemoUser } from './demo-user';
import { exchangeModules } from './exchange-modules';

/** `npm start`: every service in one process on the embedded adapters (or on Kafka if configured). */
async function main(): Promise<void> {
  const infrastructure = await openInfrastructure({ service: 'exchange', mode: 'embedded', needsDatabase: true });
  const { config } = infrastructure;
  // The pages are built here when missing or stale (esbuild: well under a second), never committed.
  const web = await ensureWebBuild({ root: resolve(__dirname, '../../..') });
  const app = await startApp(infrastructure, exchangeModules, {
    beforeListen: (nest) => {
      const fastify = nest.getHttpAdapter().getInstance();
      registerWebRoutes(fastify, web);
      registerDemoKeyRoute(fastify, { dataDir: config.DATA_DIR, embeddedDefault: !config.KAFKA_BROKERS });
    },
  });
  const demo = await ensureDemoUser(app.get(AdminService), config.DATA_DIR);
  process.stdout.write(demoBanner(demo, config.ADMIN_TOKEN!, config.PORT) + '\n');
}

main().catch((error: unknown) => {
  createLogger('exchange').fatal({ err: error }, 'failed to start');
  process.exit(1);
});
