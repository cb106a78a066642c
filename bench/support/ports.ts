// Listen ports of the benchmarks, all in 20000-29999: below Linux's ephemeral range (32768-60999
// by default), where the outgoing connections of every process on this shared machine take their
// local ports, so a fixed port there can be taken at any moment (EADDRINUSE). Each benchmark owns a
// block of 200 ports (base, base + 1 for the embedded PostgreSQL, base + 2 for metrics, base + 100
// for the hello-world baseline), so two different benchmarks can run at once.

export const BENCH_PORTS = {
  signedRequests: 21_000,
  orderEntry: 21_200,
  soak: 21_400,
  userStream: 21_600,
  contractOrderEntry: 21_800,
} as const;

/** A random block of 200 in 22000-29999, for a benchmark of which several runs may overlap. */
export function randomPortBlock(): number {
  return 22_000 + Math.floor(Math.random() * 40) * 200;
}
