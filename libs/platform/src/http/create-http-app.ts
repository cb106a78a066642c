import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { NestPinoLogger } from '../logging/nest-logger';
import type { Metrics } from '../metrics/metrics';

export interface HttpAppOptions {
  logger: Logger;
  /** Largest request body accepted; larger ones are refused before parsing. */
  bodyLimit?: number;
  /** Build the module graph without instantiating providers (for the OpenAPI document). */
  preview?: boolean;
  /** Comma-separated addresses or CIDRs whose X-Forwarded-For is believed. */
  trustedProxies?: string;
  /** Request durations by route pattern and status go here when given. */
  metrics?: Metrics;
}

/**
 * Every app's HTTP server: Fastify under Nest, raw bodies kept for signature checks. Nest routes
 * Fastify's own errors (bodies it cannot parse) and unknown routes into the global filter, so
 * one filter writes every error envelope.
 */
export async function createHttpApp(rootModule: unknown, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    trustProxy: (options.trustedProxies ?? '127.0.0.0/8,::1/128').split(',').map((p) => p.trim()),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    rawBody: true,
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  app.useGlobalFilters(new ApiExceptionFilter(options.logger, options.metrics));
  if (options.metrics) recordRequestDurations(adapter, options.metrics);
  return app;
}

/** Route patterns, not URLs, label the histogram: ids in paths would explode its cardinality. */
function recordRequestDurations(adapter: FastifyAdapter, metrics: Metrics): void {
  const fastify = adapter.getInstance();
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
