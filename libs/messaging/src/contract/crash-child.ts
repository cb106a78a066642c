// A consume-transform-produce worker that kills itself with SIGKILL after a number of batches,
// between handing a batch's outcome to the log and committing it: the worst instant for
// exactly-once. Spawned by the event-log contract suite; not part of any service.
import { copyTo } from './copy-transform';
import { openEventLogFromEnv } from './open-event-log-from-env';

async function main(): Promise<void> {
  const log = await openEventLogFromEnv(process.env);
  const crashAfter = Number(process.env.CRASH_AFTER_BATCHES ?? '1');
  let batches = 0;
  await log.consume({
    groupId: process.env.CONTRACT_GROUP ?? '',
    topics: [process.env.CONTRACT_IN_TOPIC ?? ''],
    fromBeginning: true,
    maxBatchSize: 5,
    eachBatch: copyTo(process.env.CONTRACT_OUT_TOPIC ?? ''),
    hooks: {
      beforeCommit: () => {
        batches += 1;
        if (batches >= crashAfter) process.kill(process.pid, 'SIGKILL');
      },
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
