import type { OnApplicationShutdown } from '@nestjs/common';
import { ApiError, ErrorCode, type SeenSignatures } from '@exchange/platform';

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE']);

/**
 * A signed POST, PUT or DELETE is accepted once (API-DECISIONS, "Requests and signatures"): the
 * family relies on the timestamp alone, which lets a captured order or transfer run again within
 * its recvWindow. Reads may repeat. Without a store (REPLAY_GUARD=off) everything passes.
 */
export class ReplayGuard implements OnApplicationShutdown {
  constructor(private readonly seen: SeenSignatures | undefined) {}

  get enabled(): boolean {
    return this.seen !== undefined;
  }

  /** `ttlMs`: how long the signature could still pass the timestamp check, on any replica's clock. */
  async admitOnce(method: string, apiKey: string, signature: string, ttlMs: number, now: number): Promise<void> {
    if (!this.seen || !STATE_CHANGING.has(method)) return;
    // Hex is case-insensitive: the same signature in other letters is the same signature.
    if (await this.seen.firstUse(`${apiKey}:${signature.toLowerCase()}`, ttlMs, now)) return;
    throw new ApiError(
      ErrorCode.INVALID_SIGNATURE,
      'Signature for this request is not valid: the request was replayed (a signed POST, PUT or DELETE is accepted once).',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.seen?.close();
  }
}
