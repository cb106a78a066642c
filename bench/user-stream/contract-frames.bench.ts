/**
 * The user stream's rendering of a contract fill (three frames, the order looked up in the
 * replica's memory) as a ratio of a spot fill (two frames), through the service's AccountStreams
 * with a counting socket per account. Each run is its own process pinned to core 1; the kinds
 * alternate run by run so drift on the shared machine hits both.
 */
import { runPinnedWorker, taskset } from '../support/pinned-child';
import { formatNumber, formatSpread, spread } from '../support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000);
const WARM = 20_000;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);

interface Result {
  microsPerEvent: number;
  frames: number;
  bytes: number;
}

async function main(): Promise<void> {
  console.log(
    `user-stream rendering: ${formatNumber(ACCOUNTS)} streamed accounts, one counting socket each; ${formatNumber(EVENTS)} timed events per run after ${formatNumber(WARM)} untimed; ${RUNS} runs + 1 warm-up run per kind`,
  );
  console.log(
    `node ${process.version}; each run a process on core 1 (${taskset() ? 'taskset' : 'no taskset: unpinned'}); render + JSON encode + deliver timed, events built untimed`,
  );
  const samples = { spot: [] as number[], contract: [] as number[] };
  const last: Partial<Record<keyof typeof samples, Result>> = {};
  for (let run = 0; run <= RUNS; run++) {
    for (const kind of ['spot', 'contract'] as const) {
      const result = await runPinnedWorker<Result>(
        'bench/user-stream/contract-frames-worker.ts',
        [kind, String(ACCOUNTS), String(WARM), String(EVENTS)],
        1,
      );
      if (run > 0) samples[kind].push(result.microsPerEvent);
      last[kind] = result;
    }
  }
  for (const kind of ['spot', 'contract'] as const) {
    const r = last[kind]!;
    console.log(
      `  ${kind} fill: µs per event ${formatSpread(spread(samples[kind]), 2)} (median, min–max); ${(r.frames / EVENTS).toFixed(0)} frames, ${(r.bytes / EVENTS).toFixed(0)} bytes per event`,
    );
  }
  console.log(
    `  contract / spot = ${(spread(samples.contract).median / spread(samples.spot).median).toFixed(2)}× per event`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
