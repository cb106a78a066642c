// Appends to a compacted topic of an embedded log, compacts it once (its survivors compressed),
// appends again, and kills itself with SIGKILL at a chosen step of the second compaction
// (COMPACT_KILL_AT, its COMPACT_KILL_NTH occurrence), or after all of it. Spawned by the embedded
// log's tests; not part of any service.
import { EmbeddedEventLog } from './embedded-event-log';

export const COMPACT_CRASH = {
  topic: 'compacted',
  count: 3000,
  /** ~130 framed bytes a record: ~1,150 records a segment. */
  segmentBytes: 150_000,
  padding: 'x'.repeat(100),
  /** Most records update one of 50 keys; every hundredth has a key of its own, never superseded. */
  keyOf: (i: number): string => (i % 100 === 7 ? `u${i}` : `k${i % 50}`),
} as const;

async function main(): Promise<void> {
  const { topic, count, segmentBytes, padding, keyOf } = COMPACT_CRASH;
  const killAt = process.env.COMPACT_KILL_AT;
  let left = Number(process.env.COMPACT_KILL_NTH ?? '1');
  let armed = false;
  const log = await EmbeddedEventLog.open({
    dir: process.env.COMPACT_DIR ?? '',
    fsync: 'always',
    indexIntervalBytes: 1024,
    maintenanceIntervalMs: 0,
    onCompactionStep: (step) => {
      if (armed && step === killAt && --left === 0) process.kill(process.pid, 'SIGKILL');
    },
  });
  await log.createTopics([
    {
      name: topic,
      partitions: 1,
      key: 'userId',
      config: { 'cleanup.policy': 'compact', 'segment.bytes': String(segmentBytes) },
    },
  ]);
  const publish = async (from: number, to: number): Promise<void> => {
    for (let i = from; i < to; i += 100) {
      const ids = Array.from({ length: Math.min(100, to - i) }, (_, j) => i + j);
      await log.publish(ids.map((id) => ({ topic, key: keyOf(id), value: `${id}:${padding}` })));
    }
  };
  await publish(0, count / 2);
  await log.maintain();
  await publish(count / 2, count);
  armed = true;
  await log.maintain();
  process.kill(process.pid, 'SIGKILL');
}

// The test imports COMPACT_CRASH from here; only the spawned child has a folder to work in.
if (process.env.COMPACT_DIR)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
