import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics';
import { toApiError } from './to-api-error';

/** The single place where an exception becomes an HTTP answer: `{code, msg}` and nothing else. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const error = toApiError(exception, request.method, request.url.split('?')[0] ?? '/');
    if (error.httpStatus === 429) this.metrics?.rateLimitRejections.inc({ limit: String(error.code) });
    if (error.httpStatus >= 500) {
      this.logger.error({ err: exception, method: request.method, url: request.url }, 'request failed');
    }
    void reply.status(error.httpStatus).headers(error.headers).send(error.toBody());
  }
}
