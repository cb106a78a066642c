import type { RawAnswer } from './raw-http';
import type { Endpoint } from './openapi-endpoints';

/** What a fuzzed request may never get. */
export type ViolationKind =
  | 'no answer'
  | 'closed without an answer'
  | '5xx'
  | 'outside the envelope'
  | 'success outside its documented shape'
  | 'invalid input accepted'
  | 'replay accepted'
  | 'balances changed on a rejected input'
  | 'process stopped serving';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

/** `{code, msg}` and nothing else: a negative integer code and a sentence. */
export function isEnvelope(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  const { code, msg } = body as { code?: unknown; msg?: unknown };
  return (
    keys.length === 2 && Number.isInteger(code) && (code as number) < 0 && typeof msg === 'string' && msg.length > 0
  );
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

const preview = (body: Buffer): string => JSON.stringify(body.toString('utf8').slice(0, 160));

/** The documented operation a method and request path land on, if any. */
export function routeOf(endpoints: Endpoint[], method: string, path: string): Endpoint | undefined {
  // Absolute-form targets (`GET http://host/path`) and fragments reach the route of their path.
  const bare = (path.split(/[?#]/)[0] ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return endpoints.find(
    (e) =>
      e.method === method &&
      new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
}

/**
 * The rules every HTTP answer obeys (API-DECISIONS.md, Errors): an answer at all, never a 5xx,
 * an error is exactly `{code, msg}` as JSON, a success matches the shape the document gives its
 * operation and never has a top-level `code`, and an input invalid for certain is refused.
 */
export function judgeAnswer(
  answer: RawAnswer,
  ctx: { endpoints: Endpoint[]; method: string; path: string; mustReject?: string },
): Violation[] {
  if (answer.kind === 'no-answer') return [{ kind: 'no answer', detail: `nothing within ${answer.after} ms` }];
  if (answer.kind === 'closed')
    return [{ kind: 'closed without an answer', detail: `${answer.bytes} bytes before the close` }];
  if (answer.kind === 'refused') return [{ kind: 'process stopped serving', detail: `connect: ${answer.error}` }];
  const { status, body, headers } = answer;
  const violations: Violation[] = [];
  if (status >= 500) violations.push({ kind: '5xx', detail: `${status} ${preview(body)}` });
  const head = ctx.method === 'HEAD';
  if (status === 101) {
    if (routeOf(ctx.endpoints, 'GET', ctx.path)?.cls !== 'stream')
      violations.push({ kind: 'outside the envelope', detail: `101 on ${ctx.path}` });
    return violations;
  }
  if (status >= 200 && status < 300) {
    if (ctx.mustReject)
      violations.push({
        kind: 'invalid input accepted',
        detail: `${status} although ${ctx.mustReject}: ${preview(body)}`,
      });
    const route = routeOf(ctx.endpoints, head ? 'GET' : ctx.method, ctx.path);
    if (!route)
      violations.push({
        kind: 'success outside its documented shape',
        detail: `${status} for an undocumented ${ctx.method}: ${preview(body)}`,
      });
    else if (!head && route.success) {
      const json = parseJson(body);
      if (!json.ok)
        violations.push({
          kind: 'success outside its documented shape',
          detail: `${status} not JSON: ${preview(body)}`,
        });
      else {
        const result = route.success.safeParse(json.value);
        if (!result.success)
          violations.push({
            kind: 'success outside its documented shape',
            detail: `${route.method} ${route.path}: ${result.error.issues[0]?.message ?? ''} at ${result.error.issues[0]?.path.join('.') ?? ''}: ${preview(body)}`,
          });
        else if (json.value !== null && typeof json.value === 'object' && 'code' in json.value)
          violations.push({
            kind: 'success outside its documented shape',
            detail: `a success with a top-level code: ${preview(body)}`,
          });
      }
    }
    return violations;
  }
  if (head) return violations;
  const json = parseJson(body);
  if (!json.ok || !isEnvelope(json.value) || !/application\/json/.test(headers['content-type'] ?? '')) {
    violations.push({
      kind: 'outside the envelope',
      detail: `${status} ${headers['content-type'] ?? 'no content-type'} ${preview(body)}`,
    });
  }
  return violations;
}
