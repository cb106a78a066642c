import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { NestPinoLogger } from '../logging/nest-logger';

export interface HttpAppOptions {
  logger: Logger;
  /** Largest request body accepted; larger ones are refused before parsing. */
  bodyLimit?: number;
  /** Build the module graph without instantiating providers (for the OpenAPI document). */
  preview?: boolean;
}

/**
 * Every app's HTTP server: Fastify under Nest, raw bodies kept for signature checks. Nest routes
 * Fastify's own errors (bodies it cannot parse) and unknown routes into the global filter, so
 * one filter writes every error envelope.
 */
export async function createHttpApp(rootModule: unknown, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: options.bodyLimit ?? 64 * 1024, trustProxy: true });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    rawBody: true,
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  app.useGlobalFilters(new ApiExceptionFilter(options.logger));
  return app;
}
