import type { BatchOutcome, IncomingBatch } from '../event-log.port';

/** The transform of the contract tests: each input record emitted once to `outTopic`, same key and value. */
export function copyTo(outTopic: string): (batch: IncomingBatch) => Promise<BatchOutcome> {
  return async (batch) => ({ emit: batch.records.map((r) => ({ topic: outTopic, key: r.key, value: r.value })) });
}
