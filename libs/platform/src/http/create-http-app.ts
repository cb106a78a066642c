import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { NestPinoLogger } from '../logging/nest-logger';
import type { Metrics } from '../metrics/metrics';
import { REQUEST_ID_HEADER, requestIdFrom, runWithCorrelationId } from './correlation';
import { refuseConnectRequests } from './raw-refusals';

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
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
    trustProxy: (options.trustedProxies ?? '127.0.0.0/8,::1/128').split(',').map((p) => p.trim()),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    rawBody: true,
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  app.useGlobalFilters(new ApiExceptionFilter(options.logger, options.metrics));
  refuseConnectRequests(adapter.getInstance().server);
  if (options.metrics) recordRequestDurations(adapter, options.metrics);
  traceRequests(adapter, options.logger);
  return app;
}

/**
 * Every request gets its correlation id (see correlation.ts) in the response header and in the
 * context its handler runs in, entered after the body is parsed (a parser's stream callbacks
 * would lose it), and one log line when it is answered (probes and scrapes excepted).
 */
function traceRequests(adapter: FastifyAdapter, logger: Logger): void {
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('preValidation', (request, _reply, done) => runWithCorrelationId(request.id, done));
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route.startsWith('/health/') || route === '/metrics') return;
    logger.info({ correlationId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });
}

/** Route patterns, not URLs, label the histogram: ids in paths would explode its cardinality. */
function recordRequestDurations(adapter: FastifyAdapter, metrics: Metrics): void {
  const fastify = adapter.getInstance();
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
