/**
 * Liquidation detection (issue 18): the cost of one mark price change with 100,000 positions as a
 * ratio of the same with 1,000 (goal ≤ 2×). Each run is its own process pinned to core 1 (state
 * built there, untimed); sizes alternate run by run so drift on the shared machine hits both.
 * The ratio is taken of the process's CPU time per change: on a machine whose other jobs share the
 * pinned core, wall time swung the ratio from 1.87× to 3.90× between runs of the same code.
 */
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { formatNumber, formatSpread, spread } from '../support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PER_CHANGE = 10;
/** Warm-up and timed changes per run: crossing ones use up positions (80 × 10 of the smaller 1,000). */
const CHANGES = { crossing: { warm: 20, timed: 60 }, quiet: { warm: 500, timed: 3000 } };
const SIZES = [1_000, 100_000];

interface Result {
  microsPerChange: number;
  cpuMicrosPerChange: number;
  liquidated: number;
}

async function main(): Promise<void> {
  console.log(
    `liquidation detection: BTC-SWAP-USDT LONG positions, ${RUNS} runs + 1 warm-up run per size and mode; per run ${JSON.stringify(CHANGES)} mark changes (warm-up untimed)`,
  );
  console.log(
    `node ${process.version}; each run a process on core 1 (${taskset() ? 'taskset' : 'no taskset: unpinned'}); decide + fold of MarkContractPrice timed, state built untimed`,
  );
  for (const mode of ['crossing', 'quiet'] as const) {
    const samples = { wall: new Map<number, number[]>(), cpu: new Map<number, number[]>() };
    for (const size of SIZES) [samples.wall, samples.cpu].forEach((m) => m.set(size, []));
    for (let run = 0; run <= RUNS; run++) {
      for (const size of SIZES) {
        const { warm, timed } = CHANGES[mode];
        const result = await runPinnedWorker<Result>(
          'bench/contracts/liquidation-worker.ts',
          [String(size), mode, String(warm), String(timed), String(PER_CHANGE)],
          1,
        );
        const expected = mode === 'crossing' ? timed * PER_CHANGE : 0;
        if (result.liquidated !== expected)
          throw new Error(`expected ${expected} liquidations, got ${result.liquidated}`);
        if (run === 0) continue;
        samples.wall.get(size)!.push(result.microsPerChange);
        samples.cpu.get(size)!.push(result.cpuMicrosPerChange);
      }
    }
    const what = mode === 'crossing' ? `each change liquidates ${PER_CHANGE} positions` : 'each change crosses none';
    for (const size of SIZES)
      console.log(
        `  ${mode} (${what}), ${formatNumber(size)} positions: CPU µs per change ${formatSpread(spread(samples.cpu.get(size)!), 1)}, wall ${formatSpread(spread(samples.wall.get(size)!), 1)} (median, min–max)`,
      );
    const ratio = (m: Map<number, number[]>) => spread(m.get(100_000)!).median / spread(m.get(1_000)!).median;
    // The goal is judged on CPU time: wall time also counts whatever else the shared core ran meanwhile.
    console.log(
      `  ${mode}: 100,000 / 1,000 = ${ratio(samples.cpu).toFixed(2)}× in CPU time (goal ≤ 2×), ${ratio(samples.wall).toFixed(2)}× in wall time`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
