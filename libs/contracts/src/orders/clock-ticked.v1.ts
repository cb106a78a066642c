import { z } from 'zod';
import { messageV1, symbolField } from './order-fields';

/**
 * The engine's clock on `order.events`, once a second per partition, outside the book fold: it
 * moves a partition's event time when no order does, so read models anchored at event time (the
 * rolling 24 h tickers, the 300 ms merged-depth cuts) still roll for quiet symbols. `symbol` is
 * the record key that places the tick in its partition; the tick moves the time of every symbol
 * of that partition. It changes no book and carries no id a consumer must remember.
 */
/** Market data cuts merged depth at these event-time boundaries; the engine's tick schedule ticks past one after a book change. */
export const MERGED_DEPTH_CUT_MS = 300;

export const clockTickedV1 = messageV1('ClockTicked', z.object({ symbol: symbolField }));

export type ClockTicked = z.infer<typeof clockTickedV1>;
