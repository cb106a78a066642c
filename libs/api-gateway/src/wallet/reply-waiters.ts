import { ApiError, ErrorCode } from '@exchange/platform';

export const WALLET_REPLY_TIMEOUT_MS = 10_000;

/**
 * Promises keyed by what will settle them (a command id, a withdrawal id), each with a deadline
 * that answers -1007 (outcome unknown in time). Register before sending, so a fast reply is not missed.
 */
export class ReplyWaiters<V> {
  private readonly waiting = new Map<string, { resolve: (value: V) => void; timer: NodeJS.Timeout }[]>();

  get size(): number {
    return this.waiting.size;
  }

  wait(key: string, timeoutMs = WALLET_REPLY_TIMEOUT_MS): { promise: Promise<V>; cancel: () => void } {
    let entry: { resolve: (value: V) => void; timer: NodeJS.Timeout } | undefined;
    const promise = new Promise<V>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.remove(key, entry!);
        reject(new ApiError(ErrorCode.TIMEOUT, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'));
      }, timeoutMs);
      entry = { resolve, timer };
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), entry]);
    });
    promise.catch(() => undefined);
    return {
      promise,
      cancel: () => {
        clearTimeout(entry!.timer);
        this.remove(key, entry!);
      },
    };
  }

  settle(key: string, value: V): void {
    const entries = this.waiting.get(key);
    if (!entries) return;
    this.waiting.delete(key);
    for (const e of entries) {
      clearTimeout(e.timer);
      e.resolve(value);
    }
  }

  clear(): void {
    for (const entries of this.waiting.values()) for (const e of entries) clearTimeout(e.timer);
    this.waiting.clear();
  }

  private remove(key: string, entry: { resolve: (value: V) => void; timer: NodeJS.Timeout }): void {
    const rest = (this.waiting.get(key) ?? []).filter((e) => e !== entry);
    if (rest.length === 0) this.waiting.delete(key);
    else this.waiting.set(key, rest);
  }
}
