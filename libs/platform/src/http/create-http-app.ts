import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { FastifyBodyParser, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { ErrorCode } from '../errors/error-codes';
import { NestPinoLogger } from '../logging/nest-logger';
import type { Metrics } from '../metrics/metrics';
import { REQUEST_ID_HEADER, requestIdFrom } from './correlation';
import { answerClientError, frameworkError } from './framework-errors';
import { assertNoDuplicateKeys } from './json-body';
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
  /** A connection that has not sent all its headers this long after it began a request is answered 408 and closed (slowloris). */
  headersTimeoutMs?: number;
  /** The same for the whole request, body included. */
  requestTimeoutMs?: number;
}

/**
 * Every app's HTTP server: Fastify under Nest, raw bodies kept for signature checks. Nest routes
 * Fastify's own errors (bodies it cannot parse) and unknown routes into the global filter, so
 * one filter writes every error envelope.
 */
export async function createHttpApp(rootModule: unknown, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const bodyLimit = options.bodyLimit ?? 64 * 1024;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const adapter = new FastifyAdapter({
    bodyLimit,
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
    trustProxy: (options.trustedProxies ?? '127.0.0.0/8,::1/128').split(',').map((p) => p.trim()),
    // Node checks for late headers every 30 s by default: a trickling client would outlive its timeout by that much.
    http: { headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout) },
    requestTimeout: Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout),
    clientErrorHandler: answerClientError,
    frameworkErrors: (error: { code?: string }, _request: FastifyRequest, reply: FastifyReply) => {
      const answer = frameworkError(error);
      void reply.status(answer.httpStatus).type('application/json').send(JSON.stringify(answer.toBody()));
    },
    // Fastify's own 503 while closing is not in the envelope; answerWhileClosing below is.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    rawBody: true,
    logger: new NestPinoLogger(options.logger),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  app.useBodyParser('application/json', { bodyLimit }, rejectingDuplicateKeys(adapter));
  onEveryRequest(adapter);
  app.useGlobalFilters(new ApiExceptionFilter(options.logger, options.metrics));
  refuseConnectRequests(adapter.getInstance().server);
  onEveryResponse(adapter, options.logger, options.metrics);
  return app;
}

/** Fastify's JSON parser (prototype poisoning refused), then the repeated-key check form and query bodies get too. */
function rejectingDuplicateKeys(adapter: FastifyAdapter): FastifyBodyParser<Buffer> {
  const parse = adapter.getInstance().getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = body.toString('utf8');
    parse(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      try {
        assertNoDuplicateKeys(text, parsed);
      } catch (duplicate) {
        return done(duplicate as Error, undefined);
      }
      done(null, parsed);
    });
  };
}

/**
 * Every request gets its correlation id (see correlation.ts) in the response header, as
 * request.id for its handler to hand on; one that reaches a closing server gets 503 / -1016 in
 * the envelope and its connection closed. One hook, not two: every request, the hot public
 * GETs included, passes through each hook Fastify runs (issue 16).
 */
function onEveryRequest(adapter: FastifyAdapter): void {
  const fastify = adapter.getInstance();
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (!closing) return done();
    const answer = new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; try again.');
    void reply
      .status(answer.httpStatus)
      .header('connection', 'close')
      .type('application/json')
      .send(JSON.stringify(answer.toBody()));
  });
}

/**
 * Each answer's duration in the histogram, labelled by route pattern, not URL (ids in paths would
 * explode its cardinality), and one log line (probes excepted) when info is logged. One
 * synchronous hook: an async one costs every request a promise and a tick more.
 */
function onEveryResponse(adapter: FastifyAdapter, logger: Logger, metrics: Metrics | undefined): void {
  adapter.getInstance().addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    metrics?.httpDuration.record(request.method, route, status, ms / 1000);
    if (logger.isLevelEnabled('info') && !route.startsWith('/health/'))
      logger.info(
        { correlationId: request.id, method: request.method, route, status, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    done();
  });
}
