import Redis from 'ioredis';
import type { Clock } from '../time/clock';
import {
  LISTEN_KEY_VALIDITY_MS,
  type ListenKeyOwner,
  type ListenKeyRecord,
  type ListenKeyStore,
  newListenKey,
} from './listen-key-store';

/** Redis forgets a key this long after it expired by the store's clock: the TTL only collects the garbage. */
const GARBAGE_GRACE_MS = 60_000;

/** Returns the API key's live listenKey, extended, or stores the new one; atomic, so two POSTs of one key make one stream. */
const OPEN = `
local current = redis.call('GET', KEYS[1])
if current then
  local key = ARGV[1] .. current
  local expires = tonumber(redis.call('HGET', key, 'expiresAt'))
  if expires and expires > tonumber(ARGV[6]) then
    redis.call('HSET', key, 'expiresAt', ARGV[7])
    redis.call('PEXPIRE', key, ARGV[8])
    redis.call('PEXPIRE', KEYS[1], ARGV[8])
    return {current, redis.call('HGET', key, 'accountId'), redis.call('HGET', key, 'userId')}
  end
end
redis.call('HSET', KEYS[2], 'apiKey', ARGV[3], 'accountId', ARGV[4], 'userId', ARGV[5], 'expiresAt', ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[8])
return {ARGV[2], ARGV[4], ARGV[5]}
`;

/** Extends a live key only: an expired or removed one is never brought back. */
const EXTEND = `
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if not expires or expires <= tonumber(ARGV[1]) then return false end
redis.call('HSET', KEYS[1], 'expiresAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', ARGV[4] .. redis.call('HGET', KEYS[1], 'apiKey'), ARGV[3])
return redis.call('HMGET', KEYS[1], 'apiKey', 'accountId', 'userId')
`;

/** Deletes the key (and its API key's pointer to it) and announces a live one's removal to every replica. */
const REMOVE = `
local fields = redis.call('HMGET', KEYS[1], 'apiKey', 'expiresAt')
if not fields[1] then return 0 end
redis.call('DEL', KEYS[1])
local pointer = ARGV[2] .. fields[1]
if redis.call('GET', pointer) == ARGV[4] then redis.call('DEL', pointer) end
if tonumber(fields[2]) <= tonumber(ARGV[1]) then return 0 end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

/**
 * listenKeys in Redis: a hash per key (`<prefix>:key:<listenKey>`), a pointer per API key
 * (`<prefix>:api:<apiKey>`), each change one Lua script, removals published on
 * `<prefix>:removed`. Key names are built inside the scripts, so this wants one Redis (or a
 * cluster with the prefix as a hash tag), as the rate limiter does.
 */
export class RedisListenKeyStore implements ListenKeyStore {
  private readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly listeners = new Set<(listenKey: string) => void>();

  constructor(
    url: string,
    private readonly clock: Clock,
    private readonly prefix = 'lk',
    private readonly validityMs = LISTEN_KEY_VALIDITY_MS,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }

  async open(owner: ListenKeyOwner): Promise<ListenKeyRecord> {
    const now = this.clock.now();
    const expiresAt = now + this.validityMs;
    const created = newListenKey();
    const [listenKey, accountId, userId] = (await this.redis.eval(
      OPEN,
      2,
      this.apiKeyPointer(owner.apiKey),
      this.recordKey(created),
      this.recordKey(''),
      created,
      owner.apiKey,
      owner.accountId,
      owner.userId,
      now,
      expiresAt,
      this.validityMs + GARBAGE_GRACE_MS,
    )) as [string, string, string];
    return { listenKey, apiKey: owner.apiKey, accountId, userId, expiresAt };
  }

  async find(listenKey: string): Promise<ListenKeyRecord | undefined> {
    const [apiKey, accountId, userId, expiresAt] = await this.redis.hmget(
      this.recordKey(listenKey),
      'apiKey',
      'accountId',
      'userId',
      'expiresAt',
    );
    if (!apiKey || !accountId || !userId || !expiresAt || Number(expiresAt) <= this.clock.now()) return undefined;
    return { listenKey, apiKey, accountId, userId, expiresAt: Number(expiresAt) };
  }

  async extend(listenKey: string): Promise<ListenKeyRecord | undefined> {
    const now = this.clock.now();
    const expiresAt = now + this.validityMs;
    const fields = (await this.redis.eval(
      EXTEND,
      1,
      this.recordKey(listenKey),
      now,
      expiresAt,
      this.validityMs + GARBAGE_GRACE_MS,
      this.apiKeyPointer(''),
    )) as [string, string, string] | null;
    if (!fields) return undefined;
    const [apiKey, accountId, userId] = fields;
    return { listenKey, apiKey, accountId, userId, expiresAt };
  }

  async remove(listenKey: string): Promise<boolean> {
    const removed = await this.redis.eval(
      REMOVE,
      1,
      this.recordKey(listenKey),
      this.clock.now(),
      this.apiKeyPointer(''),
      this.channel,
      listenKey,
    );
    return removed === 1;
  }

  async onRemoved(listener: (listenKey: string) => void): Promise<() => void> {
    if (!this.subscriber) {
      this.subscriber = this.redis.duplicate();
      this.subscriber.on('message', (channel: string, listenKey: string) => {
        if (channel === this.channel) for (const l of this.listeners) l(listenKey);
      });
      await this.subscriber.subscribe(this.channel);
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber?.quit();
    await this.redis.quit();
  }

  private get channel(): string {
    return `${this.prefix}:removed`;
  }

  private recordKey(listenKey: string): string {
    return `${this.prefix}:key:${listenKey}`;
  }

  private apiKeyPointer(apiKey: string): string {
    return `${this.prefix}:api:${apiKey}`;
  }
}
