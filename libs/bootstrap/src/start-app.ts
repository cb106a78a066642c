import { type DynamicModule, Module, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventLogServer } from '@exchange/messaging';
import { createHttpApp, startMetricsServer } from '@exchange/platform';
import type { Infrastructure } from './infrastructure';
import { InfrastructureModule } from './infrastructure.module';

export type ServiceModule = Type<unknown> | DynamicModule;

/**
 * One Nest application for the given service modules: their HTTP routes on Fastify and their
 * @ConsumeBatches handlers on the event log. It does not listen yet, so tests can pick a port.
 */
export async function createApp(
  infrastructure: Infrastructure,
  modules: ServiceModule[],
  options: { preview?: boolean } = {},
): Promise<NestFastifyApplication> {
  @Module({ imports: [InfrastructureModule.forRoot(infrastructure), ...modules] })
  class AppRootModule {}

  const app = await createHttpApp(AppRootModule, {
    logger: infrastructure.logger,
    preview: options.preview,
    trustedProxies: infrastructure.config.TRUSTED_PROXIES,
    bodyLimit: infrastructure.config.MAX_REQUEST_BODY_BYTES,
    metrics: infrastructure.metrics,
    headersTimeoutMs: infrastructure.config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: infrastructure.config.HTTP_REQUEST_TIMEOUT_MS,
  });
  app.connectMicroservice({ strategy: new EventLogServer(infrastructure.eventLog) }, { inheritAppConfig: true });
  return app;
}

/**
 * Starts consuming, then serving, and stops in the reverse order on SIGTERM or SIGINT: no new
 * requests, consumers stopped after their batch in hand, adapters flushed and closed. A stop that
 * takes longer than SHUTDOWN_TIMEOUT_MS ends the process anyway, with a non-zero code.
 */
export async function startApp(
  infrastructure: Infrastructure,
  modules: ServiceModule[],
  options: { beforeListen?: (app: NestFastifyApplication) => void | Promise<void> } = {},
): Promise<NestFastifyApplication> {
  const { config, logger } = infrastructure;
  const app = await createApp(infrastructure, modules);
  await options.beforeListen?.(app);
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  const metricsServer = await startMetricsServer(infrastructure.metrics, config.METRICS_PORT, config.HOST);
  logger.info({ port: config.PORT, metrics: metricsServer.url, service: infrastructure.service }, 'listening');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    void (async () => {
      try {
        await app.close();
        await metricsServer.close();
        await infrastructure.close();
        logger.info('stopped');
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    })();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
