import { symbolStatusSchema } from '@exchange/contracts';
import { z } from 'zod';

const count = z.number().int().nonnegative();
const orderRow = z.tuple([count, count, count, count]);

/**
 * One symbol's book as of an input offset, on the compacted `matching-engine.snapshots` topic
 * (key: symbol). Only the engine reads it, so its shape lives here rather than in contracts; it
 * is versioned all the same. `offset` is the next offset of the input partition the state
 * includes: recovery restores it and replays order.commands from there.
 */
export const symbolBookSnapshotV1 = z.object({
  type: z.literal('SymbolBookSnapshot'),
  v: z.literal(1),
  id: z.string(),
  ts: z.number().int(),
  payload: z.object({
    symbol: z.string(),
    /** The order.commands partition and its next offset this state includes. */
    partition: count,
    offset: count,
    marketsVersion: z.number().int(),
    /** MatchingEngine.snapshot(): validated again, and in depth, by MatchingEngine.restore. */
    engine: z.object({
      version: z.literal(1),
      status: symbolStatusSchema,
      lastTradeId: count,
      lastUpdateId: count,
      bids: z.array(orderRow),
      asks: z.array(orderRow),
    }),
    /** [orderId, userId, clientOrderId] of each resting order, what events name and the book does not keep. */
    orders: z.array(z.tuple([count, z.string(), z.string()])),
    /** Oldest first: the dedupe window at this offset. */
    recentCommandIds: z.array(z.string()),
  }),
});

export type SymbolBookSnapshot = z.infer<typeof symbolBookSnapshotV1>;
/** What a SymbolBook restores from: the snapshot's book part and the ts of the last command it applied. */
export type SymbolBookState = Pick<SymbolBookSnapshot['payload'], 'engine' | 'orders' | 'recentCommandIds'> & {
  ts: number;
};

/** Headers that let recovery pick a snapshot without parsing every one it passes. */
export const SnapshotHeaders = { partition: 'x-input-partition', offset: 'x-input-offset' } as const;
