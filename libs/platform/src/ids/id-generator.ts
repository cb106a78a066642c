import type { Clock } from '../time/clock';

/** 2024-01-01T00:00:00Z: ids count milliseconds from here. */
const EPOCH_MS = 1_704_067_200_000;
const INSTANCE_BITS = 5;
const SEQUENCE_BITS = 7;
const SEQUENCE_LIMIT = 2 ** SEQUENCE_BITS;
const INSTANCE_LIMIT = 2 ** INSTANCE_BITS;

/**
 * Ids that are positive integers below 2^53 (exact in JavaScript and in every JSON client),
 * increasing with time and unique across replicas: 41 bits of ms since 2024, 5 bits of instance,
 * 7 bits of sequence. More than 128 ids in one millisecond borrow the next millisecond, so ids
 * never repeat, even if the clock steps back.
 */
export class IdGenerator {
  private lastMs = 0;
  private sequence = 0;

  constructor(
    private readonly instance: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(instance) || instance < 0 || instance >= INSTANCE_LIMIT)
      throw new Error(`IdGenerator: instance must be 0..${INSTANCE_LIMIT - 1}`);
  }

  next(): string {
    const now = Math.max(this.clock.now() - EPOCH_MS, this.lastMs);
    if (now === this.lastMs) {
      this.sequence += 1;
      if (this.sequence >= SEQUENCE_LIMIT) {
        this.lastMs += 1;
        this.sequence = 0;
      }
    } else {
      this.lastMs = now;
      this.sequence = 0;
    }
    return String(this.lastMs * 2 ** (INSTANCE_BITS + SEQUENCE_BITS) + this.instance * SEQUENCE_LIMIT + this.sequence);
  }
}
