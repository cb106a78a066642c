// Appends to an embedded log until its segments roll past the last checkpoint, then kills itself
// with SIGKILL: the files of those rolls are on disk but not in the manifest. Spawned by the
// embedded log's tests; not part of any service.
import { EmbeddedEventLog } from './embedded-event-log';

async function main(): Promise<void> {
  const env = process.env;
  const from = Number(env.ROLL_FROM ?? '0');
  const count = Number(env.ROLL_COUNT ?? '0');
  const checkpointAfter = Number(env.ROLL_CHECKPOINT_AFTER ?? '-1');
  // The default journal size never checkpoints here: only the maintain() asked for does.
  const log = await EmbeddedEventLog.open({
    dir: env.ROLL_DIR ?? '',
    fsync: 'always',
    indexIntervalBytes: 256,
    maintenanceIntervalMs: 0,
  });
  await log.createTopics([
    {
      name: env.ROLL_TOPIC ?? '',
      partitions: 1,
      key: 'userId',
      config: { 'segment.bytes': env.ROLL_SEGMENT_BYTES ?? '' },
    },
  ]);
  for (let i = from; i < from + count; i++) {
    // Resolves once the step is durable and its record is in the segment file (not synced).
    await log.publish([{ topic: env.ROLL_TOPIC ?? '', key: 'k', value: `${i}:${env.ROLL_PADDING ?? ''}` }]);
    if (i + 1 === checkpointAfter) await log.maintain();
  }
  process.kill(process.pid, 'SIGKILL');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
