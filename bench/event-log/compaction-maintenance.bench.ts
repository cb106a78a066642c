// bench/event-log/compaction-maintenance: what a maintenance run that compacts costs the event loop.
// Builds a compacted topic of snapshot-like chunks (BENCH_CHUNK_BYTES of JSON-ish text, keys
// `<partition>/<chunk>`, BENCH_KEYS - (round % 4) chunks a snapshot) in 16 MiB segments: one maintenance
// compacts and compresses the first half, the measured one compacts again after the second half.
// During the measured run a probe appends one small record at a time to another topic. Prints,
// per run: the main thread's busy time (event-loop utilisation), the process's CPU time (threadpool
// included), the longest event-loop block (perf_hooks.monitorEventLoopDelay) and the probe's append
// latency. Run: `npm run bench:compaction` (BENCH_RUNS, default 3; one process per run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { EmbeddedEventLog } from '../../libs/messaging/src/embedded/embedded-event-log';

const MiB = 2 ** 20;
const CHUNK_BYTES = Number(process.env.BENCH_CHUNK_BYTES ?? 256 * 1024);
const KEYS = Number(process.env.BENCH_KEYS ?? 8);
/** Snapshot rounds per half: enough for two 16 MiB segments of chunks each half. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? Math.ceil((40 * MiB) / (CHUNK_BYTES * KEYS)));
const TOPIC = 'bench.snapshots';
const PROBE = 'bench.probe';
/** BENCH_COMPACT=0: the same run on a topic kept whole, to tell compaction's cost from the checkpoint's and compression's. */
const POLICY: Record<string, string> = process.env.BENCH_COMPACT === '0' ? {} : { 'cleanup.policy': 'compact' };

function chunk(round: number, key: number): string {
  const entry = (i: number): string =>
    `{"account":"${round}-${key}-${i}","free":"${(i * 7919) % 100000}.25","locked":"0"}`;
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < CHUNK_BYTES; i++) {
    const e = entry(i);
    parts.push(e);
    bytes += e.length + 1;
  }
  return `[${parts.join(',')}]`;
}

async function publishRounds(log: EmbeddedEventLog, from: number, to: number): Promise<void> {
  for (let round = from; round < to; round++)
    // A snapshot's chunk count varies (its partition's state grows and shrinks): the last chunks'
    // latest records often sit in sealed segments, which compaction then rewrites.
    for (let key = 0; key < KEYS - (round % 4); key++)
      await log.publish([{ topic: TOPIC, key: `0/${key}`, value: chunk(round, key) }]);
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-bench-'));
  try {
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    await log.createTopics([
      { name: TOPIC, partitions: 1, key: 'partition', config: { ...POLICY, 'segment.bytes': String(16 * MiB) } },
      { name: PROBE, partitions: 1, key: 'userId', config: {} },
    ]);
    await publishRounds(log, 0, ROUNDS);
    await log.maintain();
    await publishRounds(log, ROUNDS, 2 * ROUNDS);
    await log.settled();

    const delay = monitorEventLoopDelay({ resolution: 1 });
    const latencies: number[] = [];
    let maintaining = true;
    const probe = (async () => {
      for (let i = 0; maintaining; i++) {
        const started = performance.now();
        await log.publish([{ topic: PROBE, key: 'probe', value: String(i) }]);
        latencies.push(performance.now() - started);
      }
    })();
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const started = performance.now();
    delay.enable();
    await log.maintain();
    delay.disable();
    const wallMs = performance.now() - started;
    const busy = performance.eventLoopUtilization(elu);
    const used = process.cpuUsage(cpu);
    maintaining = false;
    await probe;
    await log.close();
    latencies.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        wallMs: Math.round(wallMs),
        mainThreadBusyMs: Math.round(busy.active),
        processCpuMs: Math.round((used.user + used.system) / 1000),
        longestBlockMs: Math.round(delay.max / 1e6),
        appends: latencies.length,
        appendP99Ms: Number(percentile(latencies, 0.99).toFixed(1)),
        appendMaxMs: Number((latencies[latencies.length - 1] ?? 0).toFixed(1)),
        chunkBytes: CHUNK_BYTES,
        keys: KEYS,
        rounds: ROUNDS,
        compacted: POLICY['cleanup.policy'] === 'compact',
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
