import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The correlation id of the request being served: the client's X-Request-Id when it is a sane
 * token, a fresh UUID otherwise. It is echoed in the response, logged with the request, and put
 * on every record the request causes (x-correlation-id), which each service copies onto what it
 * emits in turn, so one id follows a request from REST through the topics into every log.
 *
 * It travels as an argument (Fastify's request.id, handed on by the handler), not in an
 * AsyncLocalStorage: on Node 20 one store, once entered, makes every promise of the process
 * (all the embedded services') run async hooks.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

export function requestIdFrom(header: unknown): string {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : randomUUID();
}

/** A handler's argument: the correlation id of the request it serves. */
export const CorrelationId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<FastifyRequest>().id,
);
