// bench/event-log: throughput and latency of the event-log adapters beside raw kafkajs on the
// same broker, in the same run. Run: `npm run bench:event-log` (KAFKA_BROKERS for the Kafka rows;
// tools/kafka/start-broker.sh with KAFKA_CPU_CORE=0 starts a broker pinned to core 0).
import { cpus } from 'node:os';
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { formatNumber, formatSpread, median, spread } from '../support/stats';

type Subject = 'embedded' | 'kafka-adapter' | 'kafkajs-raw';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCHED = Number(process.env.BENCH_RECORDS ?? 50_000);
const SINGLE = Number(process.env.BENCH_SINGLE_RECORDS ?? 1_000);
const LATENCY = Number(process.env.BENCH_LATENCY_RECORDS ?? 2_000);
const WORKER_CORE = 1;
const script = 'bench/event-log/event-log-worker.ts';

interface Row {
  produce: number[];
  consume: number[];
  single: number[];
  p50: number[];
  p99: number[];
}

async function measure(subject: Subject): Promise<Row> {
  const row: Row = { produce: [], consume: [], single: [], p50: [], p99: [] };
  await runPinnedWorker(script, [subject, 'batched', String(Math.ceil(BATCHED / 5))], WORKER_CORE);
  for (let run = 0; run < RUNS; run++) {
    const b = await runPinnedWorker<{ producePerSec: number; consumePerSec: number }>(
      script,
      [subject, 'batched', String(BATCHED)],
      WORKER_CORE,
    );
    row.produce.push(b.producePerSec);
    row.consume.push(b.consumePerSec);
    const s = await runPinnedWorker<{ producePerSec: number }>(
      script,
      [subject, 'single', String(SINGLE)],
      WORKER_CORE,
    );
    row.single.push(s.producePerSec);
    const l = await runPinnedWorker<{ p50Ms: number; p99Ms: number }>(
      script,
      [subject, 'latency', String(LATENCY)],
      WORKER_CORE,
    );
    row.p50.push(l.p50Ms);
    row.p99.push(l.p99Ms);
    process.stderr.write(`  ${subject} run ${run + 1}/${RUNS} done\n`);
  }
  return row;
}

async function main(): Promise<void> {
  const kafka = Boolean(process.env.KAFKA_BROKERS);
  console.log('bench/event-log');
  console.log(
    `  node ${process.version}, ${cpus().length} cores; workers pinned to core ${WORKER_CORE} ${taskset() ? '(taskset)' : '(no taskset: unpinned)'}; broker: ${kafka ? `${process.env.KAFKA_BROKERS} (start it with KAFKA_CPU_CORE=0 to pin it to core 0)` : 'none (set KAFKA_BROKERS for the Kafka rows)'}`,
  );
  console.log(
    `  ${RUNS} measured runs after one warm-up; batched: ${BATCHED} records in publishes of 500, 4 partitions, ~200-byte JSON values; single: ${SINGLE} awaited one-record publishes; latency: ${LATENCY} records in publishes of 10 every 5 ms`,
  );
  console.log(
    '  embedded: fsync always (group commit); Kafka: acks=all, idempotent, maxInFlightRequests=1 for both our adapter and raw kafkajs; consumers (ours and raw, autoCommitThreshold 1) commit after each batch',
  );
  const subjects: Subject[] = kafka ? ['embedded', 'kafka-adapter', 'kafkajs-raw'] : ['embedded'];
  const rows = new Map<Subject, Row>();
  for (const subject of subjects) rows.set(subject, await measure(subject));

  console.log('');
  console.log(
    'subject          produce rec/s (median, min–max)   consume rec/s                      one-send-per-record rec/s   latency p50 ms   p99 ms',
  );
  for (const [subject, row] of rows) {
    console.log(
      `${subject.padEnd(16)} ${formatSpread(spread(row.produce)).padEnd(33)} ${formatSpread(spread(row.consume)).padEnd(34)} ${formatSpread(spread(row.single)).padEnd(27)} ${formatNumber(median(row.p50), 2).padEnd(16)} ${formatNumber(median(row.p99), 2)}`,
    );
  }
  console.log('');
  for (const [subject, row] of rows) {
    console.log(
      `${subject}: batched / one-send-per-record publishing = ${formatNumber(median(row.produce) / median(row.single), 1)}x`,
    );
  }
  const ours = rows.get('kafka-adapter');
  const raw = rows.get('kafkajs-raw');
  if (ours && raw) {
    console.log(
      `kafka adapter / raw kafkajs: produce ${formatNumber(median(ours.produce) / median(raw.produce), 2)}x, consume ${formatNumber(median(ours.consume) / median(raw.consume), 2)}x (ratio of medians)`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
