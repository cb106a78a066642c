import { z } from 'zod';
import { FlowType, type FlowTypeName } from './balance-flow-types';
import type { FlowEntry } from './ledger-events';
import type { LedgerJournalEvent } from './ledger-trading-events';

/** Fields every ledger event schema shares: the spot events' and the contracts events'. */
export const text = z.string();
export const id = z.string().min(1);
export const ms = z.number().int().nonnegative();

/**
 * A decimal the ledger wrote with toFixed(): the decimal fields' pattern without the length cap
 * that guards client input, since a computed value (an exact entry value) may be longer. The
 * sign is the ledger's business, so computed values that may be negative take `signedDecimal`.
 */
export const decimal = z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'a plain decimal string');
export const signedDecimal = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'a plain signed decimal string');

export const flowEntrySchema: z.ZodType<FlowEntry> = z.object({
  flowId: id,
  accountId: id,
  asset: id,
  flowType: z.enum(Object.keys(FlowType) as [FlowTypeName, ...FlowTypeName[]]),
  change: text,
  total: text,
});

/** `{type, v: 1, id, ts, payload}` of a ledger event: its own fields plus userId, seq and commandId. */
export function ledgerEventV1<T extends LedgerJournalEvent['type'], P extends z.ZodRawShape>(type: T, payload: P) {
  return ledgerEventOf(type, 1, payload);
}

/** The same envelope at v 2 (the spot order events that say what changed). */
export function ledgerEventV2<T extends LedgerJournalEvent['type'], P extends z.ZodRawShape>(type: T, payload: P) {
  return ledgerEventOf(type, 2, payload);
}

function ledgerEventOf<T extends string, V extends number, P extends z.ZodRawShape>(type: T, v: V, payload: P) {
  return z.object({
    type: z.literal(type),
    v: z.literal(v),
    id,
    ts: ms,
    payload: z.object({ ...payload, userId: id, seq: z.number().int().positive(), commandId: id }),
  });
}
