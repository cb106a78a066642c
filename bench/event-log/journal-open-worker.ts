// Seeds an embedded journal of N records, or opens one and prints the time to open and the RSS.
// Spawned by journal-open.bench.ts, one process per step, so each open starts from a cold heap.
import { EmbeddedEventLog } from '../../libs/messaging/src/embedded/embedded-event-log';

const TOPIC = {
  name: 'bench.journal',
  partitions: 8,
  key: 'userId' as const,
  config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' },
};
const VALUE = JSON.stringify({
  type: 'BenchRecorded',
  v: 1,
  id: 'x'.repeat(36),
  ts: 0,
  payload: { note: 'y'.repeat(120) },
});

async function seed(dir: string, count: number): Promise<void> {
  const log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
  await log.createTopics([TOPIC]);
  for (let from = 0; from < count; from += 1000) {
    await log.publish(
      Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
        topic: TOPIC.name,
        key: `u${(from + i) % 5000}`,
        value: VALUE,
      })),
    );
  }
  await log.close();
  console.log(JSON.stringify({ seeded: count }));
}

async function open(dir: string): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const started = process.hrtime.bigint();
  const log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
  const openMs = Number(process.hrtime.bigint() - started) / 1e6;
  const ends = await log.endOffsets(TOPIC.name);
  global.gc?.();
  const rss = process.memoryUsage().rss;
  await log.close();
  console.log(
    JSON.stringify({
      openMs,
      rssMb: rss / 2 ** 20,
      rssGrowthMb: (rss - before) / 2 ** 20,
      records: ends.reduce((a, b) => a + b, 0),
    }),
  );
}

const [mode, dir, count] = process.argv.slice(2);
(mode === 'seed' ? seed(dir!, Number(count)) : open(dir!)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
