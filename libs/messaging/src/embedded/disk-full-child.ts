// Appends to an embedded log until the disk (here: a file-size limit, `ulimit -f`) refuses, then
// checks that appends fail with the typed error and come back once space returns (a checkpoint
// starts a new journal file). Spawned by the embedded log's tests; not part of any service.
import { isEventLogUnavailable } from '../event-log-errors';
import { EmbeddedEventLog } from './embedded-event-log';

async function main(): Promise<void> {
  const log = await EmbeddedEventLog.open({
    dir: process.env.DISK_FULL_DIR ?? '',
    segmentBytes: 4096,
    walBytes: 1024 * 1024,
    maintenanceIntervalMs: 0,
  });
  await log.createTopics([{ name: 'full', partitions: 1, key: 'userId', config: {} }]);
  const value = 'x'.repeat(500);
  let acked = 0;
  let refused: unknown;
  while (acked < 10_000) {
    try {
      await log.publish([{ topic: 'full', key: 'k', value: `${acked}:${value}` }]);
      acked += 1;
    } catch (error) {
      refused = error;
      break;
    }
  }
  // The refused append left no partial frame behind: the same append is refused again, not half taken.
  const stillFull = await log
    .publish([{ topic: 'full', key: 'k', value: `${acked}:${value}` }])
    .then(() => false, isEventLogUnavailable);
  await log.maintain();
  await log.publish([{ topic: 'full', key: 'k', value: `${acked}:${value}` }]);
  await log.close();
  console.log(
    JSON.stringify({ acked, refusedTyped: isEventLogUnavailable(refused), message: String(refused), stillFull }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
