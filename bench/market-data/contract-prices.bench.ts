/**
 * What contract prices cost market data: ns per folded order.events record with the prices
 * decider's per-event step, as a ratio of the fold alone, over the same generated stream (spot and
 * contract books and trades, a second of event time every 1,000 events). Each run is its own
 * process pinned to core 1; modes alternate run by run so drift on the shared machine hits both.
 */
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { formatSpread, spread } from '../support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARM = 50_000;
const TIMED = 300_000;

async function main(): Promise<void> {
  console.log(
    `contract prices in market data: ${RUNS} runs + 1 warm-up run per mode; per run ${WARM} events untimed, then ${TIMED} timed`,
  );
  console.log(
    `node ${process.version}; each run a process on core 1 (${taskset() ? 'taskset' : 'no taskset: unpinned'}); publishing not included`,
  );
  const samples = { fold: [] as number[], prices: [] as number[] };
  let outputs = 0;
  for (let run = 0; run <= RUNS; run++) {
    for (const mode of ['fold', 'prices'] as const) {
      const result = await runPinnedWorker<{ nsPerEvent: number; outputs: number }>(
        'bench/market-data/contract-prices-worker.ts',
        [mode, String(WARM), String(TIMED)],
        1,
      );
      if (run > 0) samples[mode].push(result.nsPerEvent);
      if (mode === 'prices') outputs = result.outputs;
    }
  }
  for (const mode of ['fold', 'prices'] as const)
    console.log(
      `  ${mode === 'fold' ? 'fold alone' : 'fold + prices'}: ns per event ${formatSpread(spread(samples[mode]))} (median, min–max)`,
    );
  console.log(
    `  fold + prices / fold alone = ${(spread(samples.prices).median / spread(samples.fold).median).toFixed(2)}× (${outputs} price outputs in the timed events)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
