import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { createApp, type Infrastructure } from '@exchange/bootstrap';
import { Markets } from '@exchange/contracts';
import { publicRouteDocs, publicStreamDoc } from '@exchange/market-data';
import { EmbeddedEventLog } from '@exchange/messaging';
import {
  createLogger,
  InMemoryListenKeyStore,
  InMemoryRateLimitStore,
  loadConfig,
  Metrics,
  RateLimiter,
  systemClock,
} from '@exchange/platform';
import { exchangeModules } from '../../apps/exchange/src/exchange-modules';

/**
 * The OpenAPI document of the whole HTTP surface, read from the controllers' decorators. The app
 * is built in Nest's preview mode: providers are never instantiated, so no database is needed.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'openapi-')), LOG_LEVEL: 'silent' });
  const logger = createLogger('openapi', 'silent');
  const eventLog = await EmbeddedEventLog.open({ dir: join(config.DATA_DIR, 'event-log'), fsync: 'never' });
  const infrastructure: Infrastructure = {
    service: 'openapi',
    config,
    logger,
    markets: Markets.fromFile(config.MARKETS_FILE),
    clock: systemClock,
    eventLog,
    metrics: new Metrics('openapi'),
    rateLimiter: new RateLimiter(
      new InMemoryRateLimitStore(),
      { weightPerMinute: 1, ordersPerSecond: 1, ordersPerDay: 1 },
      systemClock,
    ),
    listenKeys: new InMemoryListenKeyStore(systemClock),
    close: () => eventLog.close(),
  };
  const app = await createApp(infrastructure, exchangeModules, { preview: true });
  const info = new DocumentBuilder()
    .setTitle('Exchange HTTP API')
    .setDescription(
      'The BHEx-family /openapi and /api/v2 REST interface. Errors are always {code, msg}; see README.md for signatures, rate limits and the user data stream.',
    )
    .setVersion('1')
    .build();
  const document = SwaggerModule.createDocument(app, info);
  // Hot public GETs are plain Fastify routes: their documentation comes from their route table.
  Object.assign(document.paths, publicRouteDocs(), publicStreamDoc());
  await app.close();
  await infrastructure.close();
  return document;
}
