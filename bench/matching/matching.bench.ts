// bench/matching: our matching engine (fast book) against the npm package nodejs-order-book on one
// seeded operation stream (BENCHMARKS.md, "Matching engine"). Run: `npm run bench:matching`.
// Environment: BENCH_RUNS (3), BENCH_OPERATIONS (1,000,000), BENCH_WARMUP (200,000 operations).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { formatNumber, formatSpread, median, spread } from '../support/stats';
import type { Subject, WorkerResult } from './matching-worker';
import { defaultStreamConfig, generateStream, writeStream } from './operation-stream';

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? defaultStreamConfig.operations);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200_000);
const CORES: Record<Subject, number> = { ours: 1, peer: 0 };
const LABEL: Record<Subject, string> = { ours: 'ours (fast book)', peer: 'nodejs-order-book 10.1.1' };
const script = 'bench/matching/matching-worker.ts';

function header(meanBookSize: number, generateMs: number): void {
  const pinning = taskset()
    ? `ours on core ${CORES.ours}, peer on core ${CORES.peer} (taskset)`
    : 'no taskset: unpinned';
  console.log('bench/matching');
  console.log(
    `  node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); one process per engine and run, ${pinning}; runs alternate ours/peer`,
  );
  console.log(
    `  stream: seed ${defaultStreamConfig.seed}, mid ${defaultStreamConfig.midTicks} ticks; ${defaultStreamConfig.seedOrders} pre-seeded passive GTC orders (untimed), then ${OPERATIONS} operations:`,
  );
  console.log(
    '    60% GTC limits (1–10 lots, half buys; crossing share clamp(0.02, 0.9, 0.25 × live/10,000) priced 0–4 ticks through the mid,',
  );
  console.log(
    '    the rest passive at mid ∓ (1 + ⌊Exp(mean 8)⌋)), 30% cancels of a uniformly random live order, 10% market orders (1–20 lots, half buys)',
  );
  console.log(
    `  mean book size over the timed operations: ${formatNumber(meanBookSize)} resting orders (stream generated in ${formatNumber(generateMs)} ms, outside any timing)`,
  );
  console.log(
    "  our MARKET BUY is sized by quote: it carries the budget that buys exactly the peer's lots at that point of the stream",
  );
  console.log(
    `  per process: warm-up on the first ${formatNumber(WARMUP)} operations, then a throughput pass (no clock in the loop) and a latency pass`,
  );
  console.log(
    '  (process.hrtime.bigint around each operation), each on a freshly seeded book; gc() before each pass; events are collected and dropped',
  );
  console.log(`  ${RUNS} measured runs per engine; shared 2-core machine, expect ±15% noise run to run`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const stream = generateStream({ ...defaultStreamConfig, operations: OPERATIONS });
  const generateMs = Date.now() - started;
  const dir = mkdtempSync(join(tmpdir(), 'bench-matching-'));
  const file = join(dir, 'operations.bin');
  writeStream(file, stream);
  header(stream.meanBookSize, generateMs);

  const results: Record<Subject, WorkerResult[]> = { ours: [], peer: [] };
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const subject of ['ours', 'peer'] as const) {
        const result = await runPinnedWorker<WorkerResult>(script, [subject, file, String(WARMUP)], CORES[subject], {
          NODE_OPTIONS: '--expose-gc',
        });
        results[subject].push(result);
        process.stderr.write(
          `  run ${run}/${RUNS} ${subject}: ${formatNumber(result.opsPerSec)} ops/s, p99 ${formatNumber(result.p99Ns)} ns\n`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  report(results);
}

function report(results: Record<Subject, WorkerResult[]>): void {
  console.log('');
  console.log(
    'engine                     ops/s median (min–max)          p50 µs   p99 µs   p99.9 µs   (latency: median of runs)',
  );
  for (const subject of ['ours', 'peer'] as const) {
    const rows = results[subject];
    const us = (pick: (r: WorkerResult) => number): string => formatNumber(median(rows.map(pick)) / 1000, 2).padEnd(9);
    console.log(
      `${LABEL[subject].padEnd(26)} ${formatSpread(spread(rows.map((r) => r.opsPerSec))).padEnd(31)} ${us((r) => r.p50Ns)}${us((r) => r.p99Ns)}${us((r) => r.p999Ns)}`,
    );
  }
  const ratio = median(results.ours.map((r) => r.opsPerSec)) / median(results.peer.map((r) => r.opsPerSec));
  console.log('');
  console.log(`ours / peer: ${formatNumber(ratio, 1)}x ops/s (ratio of medians)`);
  const books = [...results.ours, ...results.peer].map((r) => `${r.finalBookDigest}/${r.restingAtEnd}`);
  const same = new Set(books).size === 1;
  console.log(
    `final books: ${same ? 'identical' : 'DIFFERENT'} across engines and runs (L2 digest/resting orders: ${[...new Set(books)].join(', ')})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
