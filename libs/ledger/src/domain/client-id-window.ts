/**
 * The retry window of client order ids (API-DECISIONS): an id stays taken while its order is open
 * and for the window after it is final, spot and contract orders alike.
 */

/** Whether the order still holds its client id at `now` (open, or final for less than the window). */
export function holdsClientId(order: { finalTime?: number }, now: number, windowMs: number): boolean {
  return order.finalTime === undefined || now < order.finalTime + windowMs;
}

/**
 * Eviction on access, by the time of the event that accesses (so a replay evicts exactly what the
 * live fold did): removes the leading entries of a map kept in eviction order while they have
 * expired, and stops at the first that has not, so an access costs what it evicts (scanning every
 * entry made order entry quadratic). An entry kept behind a live one does no harm: decisions
 * check the time, not the presence.
 */
export function evictLeading<K, V>(
  entries: Map<K, V>,
  expired: (key: K, value: V) => boolean,
  evicted: (key: K, value: V) => void,
): void {
  for (const [key, value] of entries) {
    if (!expired(key, value)) break;
    entries.delete(key);
    evicted(key, value);
  }
}

/** Per account, a map keyed by client order id. */
export type PerAccount<V> = Map<string, Map<string, V>>;

/**
 * An account's client ids as the fold keeps them: `index` maps each held client id to the order
 * holding it (open, or ended within the window); `ended` maps the ended ones among them to when
 * their order ended, in the order they ended. Eviction reads `ended` from the front, so an order
 * left open (at the front of `index`) holds back nothing.
 */
export interface ClientIdWindow {
  index: PerAccount<string>;
  ended: PerAccount<number>;
}

/**
 * An order takes its client id. Returns the order that held it before, if another did (an ended
 * order whose window has passed but that was not evicted yet: a decision refuses a repeat before).
 */
export function takeClientId(
  ids: ClientIdWindow,
  accountId: string,
  clientOrderId: string,
  orderId: string,
): string | undefined {
  let index = ids.index.get(accountId);
  if (!index) ids.index.set(accountId, (index = new Map()));
  const previous = index.get(clientOrderId);
  index.set(clientOrderId, orderId);
  const ended = ids.ended.get(accountId);
  if (ended?.delete(clientOrderId) && ended.size === 0) ids.ended.delete(accountId);
  return previous === orderId ? undefined : previous;
}

/** An ended order keeps its client id from `finalTime` on, for the window, if it still holds it. */
export function endClientId(
  ids: ClientIdWindow,
  accountId: string,
  clientOrderId: string,
  orderId: string,
  finalTime: number,
): void {
  if (ids.index.get(accountId)?.get(clientOrderId) !== orderId) return;
  let ended = ids.ended.get(accountId);
  if (!ended) ids.ended.set(accountId, (ended = new Map()));
  ended.set(clientOrderId, finalTime);
}

/**
 * The account's client ids of orders ended for the window or more at `now` are free again and
 * forgotten; `evicted` is told each order that leaves, for a fold that keeps ended orders.
 */
export function evictEndedClientIds(
  ids: ClientIdWindow,
  accountId: string,
  now: number,
  windowMs: number,
  evicted: (orderId: string) => void = () => undefined,
): void {
  const ended = ids.ended.get(accountId);
  if (!ended) return;
  const index = ids.index.get(accountId);
  evictLeading(
    ended,
    (_, finalTime) => !holdsClientId({ finalTime }, now, windowMs),
    (clientOrderId) => {
      const orderId = index?.get(clientOrderId);
      index?.delete(clientOrderId);
      if (orderId !== undefined) evicted(orderId);
    },
  );
  if (ended.size > 0) return;
  ids.ended.delete(accountId);
  if (index?.size === 0) ids.index.delete(accountId);
}
