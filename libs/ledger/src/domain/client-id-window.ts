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
