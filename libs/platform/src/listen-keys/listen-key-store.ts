import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Clock } from '../time/clock';

/** Spec 6: a listenKey is valid 60 minutes after its creation or its last keep-alive. */
export const LISTEN_KEY_VALIDITY_MS = 60 * 60_000;
/** 60 characters, as the family's listenKeys; anything else is not a listenKey of ours. */
export const LISTEN_KEY_FORMAT = /^[A-Za-z0-9]{60}$/;

/** Who a listenKey streams for: the API key that opened it and that key's account. */
export interface ListenKeyOwner {
  apiKey: string;
  accountId: string;
  userId: string;
}

export interface ListenKeyRecord extends ListenKeyOwner {
  listenKey: string;
  /** ms, by the store's clock; the key is dead from this instant on. */
  expiresAt: number;
}

/**
 * The live listenKeys, shared by every gateway and user-stream replica that uses the same store:
 * Redis in the distributed mode, memory on the embedded default. Validity is decided by the
 * injected clock (the Redis TTL only collects the garbage), and a removal is announced to every
 * replica at once, so each can close the sockets of the key it holds.
 */
export interface ListenKeyStore {
  /** The API key's live listenKey with its expiry moved to now + validity, or a new one (one live key per API key). */
  open(owner: ListenKeyOwner): Promise<ListenKeyRecord>;
  /** The live record; undefined when the key is unknown or expired. */
  find(listenKey: string): Promise<ListenKeyRecord | undefined>;
  /** Moves a live key's expiry to now + validity; undefined (and nothing changes) when it is unknown or expired. */
  extend(listenKey: string): Promise<ListenKeyRecord | undefined>;
  /** Ends the key and announces it to every subscriber; false when it was not live. */
  remove(listenKey: string): Promise<boolean>;
  /** Calls `listener` with every listenKey removed through any replica; returns the unsubscribe. */
  onRemoved(listener: (listenKey: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function newListenKey(): string {
  return randomBytes(30).toString('hex');
}

export class InMemoryListenKeyStore implements ListenKeyStore {
  private readonly records = new Map<string, ListenKeyRecord>();
  private readonly byApiKey = new Map<string, string>();
  private readonly removals = new EventEmitter();
  private opens = 0;

  constructor(
    private readonly clock: Clock,
    private readonly validityMs = LISTEN_KEY_VALIDITY_MS,
  ) {
    this.removals.setMaxListeners(0);
  }

  async open(owner: ListenKeyOwner): Promise<ListenKeyRecord> {
    const now = this.clock.now();
    if (++this.opens % 1000 === 0) this.sweep(now);
    const current = this.live(this.byApiKey.get(owner.apiKey), now);
    if (current) {
      current.expiresAt = now + this.validityMs;
      return { ...current };
    }
    const record: ListenKeyRecord = {
      listenKey: newListenKey(),
      apiKey: owner.apiKey,
      accountId: owner.accountId,
      userId: owner.userId,
      expiresAt: now + this.validityMs,
    };
    this.records.set(record.listenKey, record);
    this.byApiKey.set(owner.apiKey, record.listenKey);
    return { ...record };
  }

  async find(listenKey: string): Promise<ListenKeyRecord | undefined> {
    const record = this.live(listenKey, this.clock.now());
    return record && { ...record };
  }

  async extend(listenKey: string): Promise<ListenKeyRecord | undefined> {
    const now = this.clock.now();
    const record = this.live(listenKey, now);
    if (!record) return undefined;
    record.expiresAt = now + this.validityMs;
    return { ...record };
  }

  async remove(listenKey: string): Promise<boolean> {
    const record = this.live(listenKey, this.clock.now());
    if (!record) return false;
    this.forget(record);
    this.removals.emit('removed', listenKey);
    return true;
  }

  async onRemoved(listener: (listenKey: string) => void): Promise<() => void> {
    this.removals.on('removed', listener);
    return () => this.removals.off('removed', listener);
  }

  async close(): Promise<void> {
    this.records.clear();
    this.byApiKey.clear();
    this.removals.removeAllListeners();
  }

  private live(listenKey: string | undefined, now: number): ListenKeyRecord | undefined {
    const record = listenKey === undefined ? undefined : this.records.get(listenKey);
    if (!record) return undefined;
    if (record.expiresAt > now) return record;
    this.forget(record);
    return undefined;
  }

  private forget(record: ListenKeyRecord): void {
    this.records.delete(record.listenKey);
    if (this.byApiKey.get(record.apiKey) === record.listenKey) this.byApiKey.delete(record.apiKey);
  }

  private sweep(now: number): void {
    for (const record of this.records.values()) if (record.expiresAt <= now) this.forget(record);
  }
}
