/** API-DECISIONS.md: ping every 30 s, close after 60 s without an answer, close every socket at 24 h. */
export const PING_INTERVAL_MS = 30_000;
export const PONG_TIMEOUT_MS = 60_000;
export const MAX_CONNECTION_MS = 24 * 60 * 60_000;

export type KeepaliveAction = 'none' | 'ping' | 'drop' | 'retire';

export interface KeepaliveState {
  connectedAt: number;
  lastPingAt: number;
  awaitingPong: boolean;
  lastSeen: number;
}

/**
 * What the sweep does with a socket now: retire it at 24 h, drop it when a ping has gone
 * unanswered and nothing was heard for 60 s, ping it every 30 s. Deciding from the last ping
 * (not only the last pong) means a clock that jumps ahead pings first instead of dropping
 * every socket at once.
 */
export function keepaliveAction(s: KeepaliveState, now: number): KeepaliveAction {
  if (now - s.connectedAt >= MAX_CONNECTION_MS) return 'retire';
  if (s.awaitingPong && now - s.lastPingAt >= PING_INTERVAL_MS && now - s.lastSeen >= PONG_TIMEOUT_MS) return 'drop';
  if (!s.awaitingPong && now - s.lastPingAt >= PING_INTERVAL_MS) return 'ping';
  return 'none';
}
