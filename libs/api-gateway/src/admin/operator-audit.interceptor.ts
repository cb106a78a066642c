import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, throwError } from 'rxjs';
import { HeaderNames, Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { ApiError, CLOCK, type Clock, EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { randomUUID } from 'node:crypto';

const SECRET_FIELDS = new Set(['secretKey', 'secret', 'password']);

/**
 * The audit trail of the operator API: who called what, when, and how it ended, one record per
 * call on `operator.audit`, written before the answer leaves, with the request's correlation id.
 * Secrets in bodies are masked.
 */
@Injectable()
export class OperatorAuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const started = this.clock.now();
    // The request's X-Request-Id, so an audit record leads to the request's log lines and what the call caused on the topics.
    const correlationId = request.id;
    const record = (outcome: { status: number; code?: number }): Promise<void> =>
      this.log
        .publish([
          {
            topic: Topics.operatorAudit.name,
            key: 'admin',
            headers: { [HeaderNames.correlationId]: correlationId },
            value: JSON.stringify({
              type: 'OperatorCallRecorded',
              v: 1,
              id: randomUUID(),
              ts: started,
              payload: {
                actor: 'admin',
                correlationId,
                ip: request.ip ?? '',
                userAgent: request.headers['user-agent'] ?? '',
                method: request.method,
                path: request.url,
                body: mask(request.body),
                ...outcome,
              },
            }),
          },
        ])
        .catch((error: unknown) => this.logger.error({ err: error }, 'operator audit record failed'));
    return next.handle().pipe(
      mergeMap((value) => from(record({ status: 200 }).then(() => value))),
      catchError((error: unknown) => {
        const status = error instanceof ApiError ? error.httpStatus : 500;
        return from(record({ status, code: error instanceof ApiError ? error.code : -1001 })).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
    );
  }
}

function mask(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body ?? null;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? '[redacted]' : v]));
}
