import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The correlation id of the request being served: the client's X-Request-Id when it is a sane
 * token, a fresh UUID otherwise. It is echoed in the response, logged with the request, and put
 * on every record the request causes (x-correlation-id), which each service copies onto what it
 * emits in turn, so one id follows a request from REST through the topics into every log.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

const storage = new AsyncLocalStorage<{ correlationId: string }>();

export function requestIdFrom(header: unknown): string {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : randomUUID();
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}
