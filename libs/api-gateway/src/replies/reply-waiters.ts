import { ApiError, ErrorCode } from '@exchange/platform';

export const REPLY_TIMEOUT_MS = 10_000;

/**
 * Reads the events routed to one request, in arrival order, and says when its outcome is known:
 * a value settles the wait, undefined keeps waiting, a throw fails the request with that error.
 */
export type Gather<E, V> = (event: E) => V | undefined;

export interface ReplyWait<V> {
  promise: Promise<V>;
  cancel: () => void;
}

interface Waiter<E> {
  id: string;
  keys: readonly string[];
  gather: Gather<E, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * The requests a gateway replica waits on, one entry per request (its command id), never per
 * order or account: two requests about the same thing each get their own answer. An event
 * reaches every waiter registered under one of its routing keys (the command that caused it, and
 * keys such as `order:<id>` a waiter asks for too). The table is bounded: past `capacity` a new
 * wait is refused with 503 / -1016 instead of queuing to time out.
 */
export class ReplyWaiters<E> {
  private readonly byId = new Map<string, Waiter<E>>();
  private readonly byKey = new Map<string, Set<Waiter<E>>>();

  constructor(
    private readonly capacity: number,
    private readonly timeoutMs = REPLY_TIMEOUT_MS,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  isFull(): boolean {
    return this.byId.size >= this.capacity;
  }

  /** Registers before the request is sent, so a fast reply is not missed. */
  wait<V>(
    id: string,
    gather: Gather<E, V>,
    options: { alsoKeys?: readonly string[]; timeoutMs?: number } = {},
  ): ReplyWait<V> {
    if (this.isFull())
      throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
    if (this.byId.has(id)) throw new Error(`reply waiters: ${id} is already waited on`);
    let waiter: Waiter<E> | undefined;
    const promise = new Promise<V>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.remove(waiter!);
        reject(
          new ApiError(
            ErrorCode.TIMEOUT,
            'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
          ),
        );
      }, options.timeoutMs ?? this.timeoutMs);
      waiter = {
        id,
        keys: [id, ...(options.alsoKeys ?? [])],
        gather,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer,
      };
    });
    promise.catch(() => undefined);
    this.byId.set(id, waiter!);
    for (const key of waiter!.keys) {
      const set = this.byKey.get(key) ?? new Set<Waiter<E>>();
      set.add(waiter!);
      this.byKey.set(key, set);
    }
    return { promise, cancel: () => this.remove(waiter!) };
  }

  /** Hands `event` to each waiter registered under any of `keys`, once each. */
  route(keys: readonly string[], event: E): void {
    const reached = new Set<Waiter<E>>();
    for (const key of keys) for (const waiter of this.byKey.get(key) ?? []) reached.add(waiter);
    for (const waiter of reached) {
      let value: unknown;
      try {
        value = waiter.gather(event);
      } catch (error) {
        this.remove(waiter);
        waiter.reject(error);
        continue;
      }
      if (value === undefined) continue;
      this.remove(waiter);
      waiter.resolve(value);
    }
  }

  clear(): void {
    for (const waiter of [...this.byId.values()]) this.remove(waiter);
  }

  private remove(waiter: Waiter<E>): void {
    clearTimeout(waiter.timer);
    if (this.byId.get(waiter.id) !== waiter) return;
    this.byId.delete(waiter.id);
    for (const key of waiter.keys) {
      const set = this.byKey.get(key);
      set?.delete(waiter);
      if (set?.size === 0) this.byKey.delete(key);
    }
  }
}
