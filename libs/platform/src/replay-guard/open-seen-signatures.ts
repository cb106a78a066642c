import type { Config } from '../config/config.schema';
import { RedisSeenSignatures } from './redis-seen-signatures';
import { InMemorySeenSignatures, type SeenSignatures } from './seen-signatures';

/** The replay guard's store as configured: none when REPLAY_GUARD=off, Redis when REDIS_URL is set. */
export function openSeenSignatures(config: Config): SeenSignatures | undefined {
  if (config.REPLAY_GUARD === 'off') return undefined;
  // The schema prefix also namespaces Redis keys, as it does for rate limits and listenKeys.
  return config.REDIS_URL
    ? new RedisSeenSignatures(config.REDIS_URL, `${config.DATABASE_SCHEMA_PREFIX ?? ''}sig`)
    : new InMemorySeenSignatures(config.REPLAY_GUARD_MAX_ENTRIES);
}
