import 'reflect-metadata';
import { createLogger, loadConfig, systemClock } from '@exchange/platform';
import { createExchangeApp } from './create-exchange-app';

async function main(): Promise<void> {
  const config = loadConfig(process.env, 'embedded');
  const logger = createLogger('exchange', config.LOG_LEVEL);
  const app = await createExchangeApp({ config, logger, clock: systemClock });
  await app.listen(config.PORT, config.HOST);
  logger.info({ port: config.PORT }, 'exchange listening');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
