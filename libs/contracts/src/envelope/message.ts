import { z } from 'zod';

/**
 * Every command and event on every topic: plain data, versioned by (type, v). A published version
 * never changes; a new shape is a new `v` with an upcaster from the old one.
 */
export interface Message<TType extends string = string, TPayload = unknown> {
  type: TType;
  v: number;
  /** Unique per message; consumers deduplicate by it. */
  id: string;
  /** Milliseconds since the epoch, set by the producer that decided the message. */
  ts: number;
  payload: TPayload;
}

/**
 * A message of the union `M` before its envelope (v, id, ts): its type and that type's payload, as
 * a union itself, so a producer adding the envelope gets an `M` without a cast.
 */
export type MessageDraft<M extends { type: string; payload: unknown }> = {
  [T in M['type']]: { type: T; payload: Extract<M, { type: T }>['payload'] };
}[M['type']];

export const messageEnvelopeSchema = z.object({
  type: z.string().min(1),
  v: z.number().int().positive(),
  id: z.string().min(1),
  ts: z.number().int().nonnegative(),
  payload: z.unknown(),
});

/**
 * Record headers next to a message, for tracing across services. Every record carries its message
 * id (the one thing a log of an unparsable record can still name) and the request's correlation
 * id; a header that only repeats the value (its type, a causation the id or payload already
 * names) costs bytes on every record and is left out: the matching engine writes neither.
 */
export const HeaderNames = {
  messageId: 'x-message-id',
  messageType: 'x-message-type',
  correlationId: 'x-correlation-id',
  causationId: 'x-causation-id',
  /** On ledger.events: the ledger.commands offset after the batch whose atomic step wrote the event. */
  ledgerInputNext: 'x-ledger-input-next',
} as const;

/** The `{ type, v: 1, id, ts, payload }` envelope of a first version. */
export function messageV1<TType extends string, TPayload extends z.ZodType>(type: TType, payload: TPayload) {
  return z.object({
    type: z.literal(type),
    v: z.literal(1),
    id: z.string().min(1).max(200),
    ts: z.number().int().nonnegative(),
    payload,
  });
}

/** The same envelope for a second version. */
export function messageV2<TType extends string, TPayload extends z.ZodType>(type: TType, payload: TPayload) {
  return z.object({
    type: z.literal(type),
    v: z.literal(2),
    id: z.string().min(1).max(200),
    ts: z.number().int().nonnegative(),
    payload,
  });
}

/** A record's value parsed with `schema`, or undefined when it is not JSON or not what the schema accepts. */
export function parseMessage<T>(schema: z.ZodType<T>, value: string): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
