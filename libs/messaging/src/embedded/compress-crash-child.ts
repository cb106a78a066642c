// Appends to an embedded log until segments are sealed, checkpoints, and kills itself with SIGKILL
// at a chosen step of their compression (COMPRESS_KILL_AT, its COMPRESS_KILL_NTH occurrence), or
// after all of it. Spawned by the embedded log's tests; not part of any service.
import { EmbeddedEventLog } from './embedded-event-log';

async function main(): Promise<void> {
  const env = process.env;
  const count = Number(env.COMPRESS_COUNT ?? '0');
  const batch = 100;
  const killAt = env.COMPRESS_KILL_AT;
  let left = Number(env.COMPRESS_KILL_NTH ?? '1');
  const topic = env.COMPRESS_TOPIC ?? '';
  const log = await EmbeddedEventLog.open({
    dir: env.COMPRESS_DIR ?? '',
    fsync: 'always',
    indexIntervalBytes: 1024,
    maintenanceIntervalMs: 0,
    onCompressionStep: (step) => {
      if (step === killAt && --left === 0) process.kill(process.pid, 'SIGKILL');
    },
  });
  await log.createTopics([
    { name: topic, partitions: 1, key: 'userId', config: { 'segment.bytes': env.COMPRESS_SEGMENT_BYTES ?? '' } },
  ]);
  for (let i = 0; i < count; i += batch) {
    const values = Array.from(
      { length: Math.min(batch, count - i) },
      (_, j) => `${i + j}:${env.COMPRESS_PADDING ?? ''}`,
    );
    await log.publish(values.map((value) => ({ topic, key: 'k', value })));
  }
  await log.maintain();
  process.kill(process.pid, 'SIGKILL');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
