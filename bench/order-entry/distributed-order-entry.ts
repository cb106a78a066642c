// bench:order-entry's Kafka half: the same workloads against the distributed mode as CI runs it
// (test/support/distributed-exchange.ts: every app of docker-compose.yml its own process, two
// gateways and two market-data replicas behind nginx's edge configuration, on the broker of
// KAFKA_BROKERS, PostgreSQL and Redis), so the two modes are compared in one run on one machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { startDistributedExchange } from '../../test/support/distributed-exchange';
import { type LoadResult, type PresignedRequest, runLoad } from '../support/exchange-vs-hello';
import { taskset } from '../support/pinned-child';
import { brokerRequestCounter, formatRequestsPerOrder, requestsNotFromAnIdleExchange } from './broker-requests';
import { cpuOfTree } from '../support/process-cpu';
import { formatNumber, formatSpread, median, spread } from '../support/stats';
import {
  crossingTraders,
  printHops,
  runOrderWorkloads,
  trader,
  type WorkloadSettings,
  type WorkloadSummary,
} from './order-workloads';

const SERVICES_CORE = 0;
const TICKS = 100;
const IDLE_SEC = 5;

export interface DistributedRun {
  ioc: LoadResult[];
  workloads: WorkloadSummary;
}

/** The broker's CPU seconds so far, when tools/kafka/start-broker.sh's pid file says which process it is. */
function brokerCpuSeconds(brokers: string): number | undefined {
  const port = brokers.split(',')[0]?.split(':')[1];
  const home = process.env.KAFKA_HOME_DIR ?? `${process.env.TMPDIR ?? '/tmp'}/exchange-kafka-${port}`;
  try {
    const pid = readFileSync(`${home}/broker.pid`, 'utf8').trim();
    if (!existsSync(`/proc/${pid}/stat`)) return undefined;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/** CPU seconds between two readings by service over `per`: µs per order with orders / 1e6, ms per second with seconds / 1000. */
function perService(before: Map<string, number>, after: Map<string, number>, per: number): Map<string, number> {
  return new Map([...after].map(([service, seconds]) => [service, (seconds - (before.get(service) ?? 0)) / per]));
}

/** Starts the topology, pins its services to the core the embedded exchange had, runs the IOC runs and the workloads. */
export async function runDistributedOrderEntry(
  settings: WorkloadSettings & { brokers: string },
  env: Record<string, string>,
  presign: (demo: { apiKey: string; secretKey: string }) => PresignedRequest[],
): Promise<DistributedRun> {
  for (const name of ['DATABASE_URL', 'REDIS_URL'])
    if (!process.env[name]) throw new Error(`BENCH_KAFKA=1 runs the distributed mode, which needs ${name}`);
  console.log('');
  console.log(
    `Kafka: docker-compose.yml's services as separate processes (2 gateways, 2 market-data replicas, nginx's edge in front) on the broker at ${settings.brokers}, PostgreSQL and Redis; services pinned to core ${SERVICES_CORE}, the broker and nginx unpinned`,
  );
  const exchange = await startDistributedExchange({ env });
  try {
    const pids = exchange.processes.map((p) => p.child.pid!);
    if (taskset())
      for (const pid of pids) execFileSync(taskset()!, ['-a', '-p', '-c', String(SERVICES_CORE), String(pid)]);
    const cpuSeconds = () => pids.reduce((sum, pid) => sum + cpuOfTree(pid), 0);
    // By service (replicas together): which process the CPU per order goes to.
    const cpuByService = (): Map<string, number> => {
      const byService = new Map<string, number>();
      for (const p of exchange.processes) {
        const service = p.name.replace(/#\d+$/, '');
        byService.set(service, (byService.get(service) ?? 0) + cpuOfTree(p.child.pid!));
      }
      return byService;
    };
    // Accounts are made before any load: a backlog left by the IOC runs would time their requests out.
    const demo = await trader(exchange.edgeUrl, exchange.adminToken, 100);
    const traders = await crossingTraders(exchange.edgeUrl, exchange.adminToken);
    // A Kafka client keeps polling while nothing happens: that CPU is in every figure per order,
    // more so the fewer orders a second, so it is shown on its own.
    const requests = brokerRequestCounter(settings.brokers);
    const requestsIdleBefore = requests?.read();
    // A reading samples the counters at the end of its JVM's run: the idle window is from the end of
    // one to the end of the next, which holds the second reading's start-up too, not IDLE_SEC.
    const requestsIdleFrom = performance.now();
    const idleBefore = cpuByService();
    const brokerIdleBefore = brokerCpuSeconds(settings.brokers);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SEC * 1000));
    const idle = perService(idleBefore, cpuByService(), IDLE_SEC / 1000);
    const requestsIdleAfter = requests?.read();
    const requestsIdleSec = (performance.now() - requestsIdleFrom) / 1000;
    const brokerIdleAfter = brokerCpuSeconds(settings.brokers);
    const brokerIdle =
      brokerIdleBefore !== undefined && brokerIdleAfter !== undefined
        ? `; the broker ${formatNumber((brokerIdleAfter - brokerIdleBefore) / (IDLE_SEC / 1000))}`
        : '';
    const load = (name: string) =>
      runLoad(exchange.workDir, name, exchange.edgeUrl, presign(demo), {
        pipelining: 1,
        durationSec: settings.durationSec,
      });
    await load('warm-kafka');
    const ioc: LoadResult[] = [];
    const brokerCpu: number[] = [];
    const iocByService: Map<string, number>[] = [];
    const requestsBefore = requests?.read();
    for (let run = 0; run < settings.runs; run++) {
      const before = cpuSeconds();
      const servicesBefore = cpuByService();
      const brokerBefore = brokerCpuSeconds(settings.brokers);
      const result = await load(`kafka-${run}`);
      ioc.push({ ...result, cpuUs: ((cpuSeconds() - before) / result.total) * 1e6 });
      iocByService.push(perService(servicesBefore, cpuByService(), result.total / 1e6));
      const brokerAfter = brokerCpuSeconds(settings.brokers);
      if (brokerBefore !== undefined && brokerAfter !== undefined)
        brokerCpu.push(((brokerAfter - brokerBefore) / result.total) * 1e6);
    }
    const requestsAfter = requests?.read();
    console.log(
      `signed POST /openapi/v1/order (IOC) over Kafka: ${formatSpread(spread(ioc.map((r) => r.requestsPerSec)))} orders/s, p50 ${formatNumber(median(ioc.map((r) => r.p50Ms)), 1)} ms, p99 ${formatNumber(median(ioc.map((r) => r.p99Ms)), 1)} ms, errors+non-2xx ${ioc.reduce((n, r) => n + r.errors + r.non2xx, 0)}`,
    );
    console.log(
      `CPU per order of the services' processes: ${formatSpread(spread(ioc.map((r) => r.cpuUs!)))} µs${brokerCpu.length > 0 ? `; the broker's: ${formatSpread(spread(brokerCpu))} µs` : ''}`,
    );
    console.log(
      `  by service, µs per order (median of the runs): ${[...idle.keys()].map((service) => `${service} ${formatNumber(median(iocByService.map((run) => run.get(service) ?? 0)))}`).join(', ')}`,
    );
    console.log(
      `  idle, before the load (${IDLE_SEC} s), CPU ms per second: ${[...idle].map(([service, ms]) => `${service} ${formatNumber(ms)}`).join(', ')}; all ${formatNumber([...idle.values()].reduce((a, b) => a + b, 0))}${brokerIdle}`,
    );
    if (requestsBefore && requestsAfter && requestsIdleBefore && requestsIdleAfter) {
      const orders = ioc.reduce((n, r) => n + r.total, 0);
      console.log(
        `  broker requests per order (IOC runs, ${orders} orders; counted by the broker): ${formatRequestsPerOrder(requestsBefore, requestsAfter, orders)}`,
      );
      console.log(
        `  broker requests per second idle (${formatNumber(requestsIdleSec, 1)} s between two readings before the load): ${formatRequestsPerOrder(requestsIdleBefore, requestsIdleAfter, requestsIdleSec)}`,
      );
      const foreign = requestsNotFromAnIdleExchange(requestsIdleBefore, requestsIdleAfter);
      if (foreign)
        console.log(
          `  note: while idle the broker also served ${foreign}: not this exchange's idle traffic (another client of the broker, or a member that rejoined), yet counted above`,
        );
    }
    const workloads = await runOrderWorkloads(
      { ...settings, adminToken: exchange.adminToken },
      {
        url: exchange.edgeUrl,
        cpuSeconds,
        workDir: exchange.workDir,
        demo,
        traders,
        baselinePerSec: Number.NaN,
      },
    );
    // Before the topology stops: stopping deletes the run's topics.
    await printHops({ brokers: settings.brokers, namespace: exchange.namespace });
    return { ioc, workloads };
  } finally {
    await exchange.stop();
  }
}
