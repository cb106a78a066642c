import 'reflect-metadata';
import { openInfrastructure, startApp } from '@exchange/bootstrap';
import { createLogger } from '@exchange/platform';
import { exchangeModules } from './exchange-modules';

/** `npm start`: every service in one process on the embedded adapters (or on Kafka if configured). */
openInfrastructure({ service: 'exchange', mode: 'embedded', needsDatabase: true })
  .then((infrastructure) => startApp(infrastructure, exchangeModules))
  .catch((error: unknown) => {
    createLogger('exchange').fatal({ err: error }, 'failed to start');
    process.exit(1);
  });
