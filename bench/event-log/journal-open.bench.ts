// bench/event-log/journal-open: how opening the embedded journal grows with its history. Seeds
// journals of N records (default 100k and 1M, BENCH_OPEN_SIZES=100000,1000000), opens each in a
// fresh process, and prints the time to open, the RSS after opening, and the ratio between sizes.
// Run: `npm run bench:journal-open`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPinnedWorker } from '../support/pinned-child';

const SIZES = (process.env.BENCH_OPEN_SIZES ?? '100000,1000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const script = 'bench/event-log/journal-open-worker.ts';
const CORE = 1;

interface Opened {
  openMs: number;
  rssMb: number;
  rssGrowthMb: number;
  records: number;
}

async function main(): Promise<void> {
  const rows: { size: number; openMs: number; rssMb: number; rssGrowthMb: number }[] = [];
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'journal-open-'));
    try {
      await runPinnedWorker(script, ['seed', dir, String(size)], CORE);
      const runs: Opened[] = [];
      for (let run = 0; run < RUNS; run++)
        runs.push(await runPinnedWorker<Opened>(script, ['open', dir], CORE, { NODE_OPTIONS: '--expose-gc' }));
      const best = runs.sort((a, b) => a.openMs - b.openMs)[Math.floor(runs.length / 2)]!;
      if (best.records !== size) throw new Error(`opened ${best.records} records, seeded ${size}`);
      rows.push({ size, openMs: best.openMs, rssMb: best.rssMb, rssGrowthMb: best.rssGrowthMb });
      process.stderr.write(`  ${size} records: open ${best.openMs.toFixed(0)} ms, RSS ${best.rssMb.toFixed(0)} MB\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log('| records | time to open (median) | RSS after open | RSS growth during open |');
  console.log('|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.size.toLocaleString('en')} | ${r.openMs.toFixed(0)} ms | ${r.rssMb.toFixed(0)} MB | ${r.rssGrowthMb.toFixed(0)} MB |`,
    );
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  console.log(
    `\n${last.size / first.size}× the records: open time ×${(last.openMs / first.openMs).toFixed(2)}, RSS ×${(last.rssMb / first.rssMb).toFixed(2)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
