// bench/order-entry: signed POST /openapi/v1/order (the whole pipeline: gateway → ledger reserve →
// engine → ledger outcome → answer) on the embedded default against a bare Fastify hello-world in
// the same run; with BENCH_KAFKA=1 and KAFKA_BROKERS (plus DATABASE_URL and REDIS_URL), then the
// same workloads on the distributed mode (distributed-order-entry.ts), and both side by side with
// their ratio. Run: `npm run bench:order-entry`.
// The orders are IOC BUYs below the market: each goes through every step and ends CANCELED, so
// funds are released and the run can last as long as wanted. Then, on the same exchange, crossing
// orders from several accounts and one order at a time (order-workloads.ts), each with its CPU per
// order, and the hops of every workload read from the journal.
// BENCH_RUNS, BENCH_DURATION_SEC and BENCH_SINGLE_ORDERS (300) size it.
import { createHmac, randomBytes } from 'node:crypto';
import { runExchangeVsHello } from '../support/exchange-vs-hello';
import { BENCH_PORTS } from '../support/ports';
import { cpuOfTree } from '../support/process-cpu';
import { formatNumber, median } from '../support/stats';
import { runDistributedOrderEntry } from './distributed-order-entry';
import { printHops, runOrderWorkloads, type WorkloadSettings, type WorkloadSummary } from './order-workloads';

const kafka = process.env.BENCH_KAFKA === '1' && process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS : '';
const workloads: WorkloadSettings = {
  runs: Number(process.env.BENCH_RUNS ?? 3),
  durationSec: Number(process.env.BENCH_DURATION_SEC ?? 10),
  singleOrders: Number(process.env.BENCH_SINGLE_ORDERS ?? 300),
  adminToken: randomBytes(16).toString('hex'),
};
const limits = {
  RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
  RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
  REPLAY_GUARD: 'off',
};

function presign({ apiKey, secretKey }: { apiKey: string; secretKey: string }) {
  const start = Date.now();
  return Array.from({ length: 500 }, (_, i) => {
    const query = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01&recvWindow=60000&timestamp=${start - (i % 1000)}`;
    const signature = createHmac('sha256', secretKey).update(query).digest('hex');
    return {
      method: 'POST',
      path: `/openapi/v1/order?${query}&signature=${signature}`,
      headers: { 'X-SERVICE-KEY': apiKey },
    };
  });
}

/** One line of the comparison: the embedded figure, Kafka's, and Kafka / embedded. */
function compared(label: string, embedded: number, onKafka: number, unit: string): string {
  return `${label.padEnd(33)}${`${formatNumber(embedded, 1)} ${unit}`.padEnd(18)}${`${formatNumber(onKafka, 1)} ${unit}`.padEnd(18)}${formatNumber(onKafka / embedded, 2)}x`;
}

async function main(): Promise<void> {
  let embedded: WorkloadSummary | undefined;
  const embeddedIoc = await runExchangeVsHello({
    name: 'order-entry',
    target: 'signed POST /openapi/v1/order',
    describe: [
      'exchange: embedded default (embedded log with fsync always), embedded PostgreSQL; weight and ORDERS limits raised to 10^9',
      'each request: POST /openapi/v1/order BTCUSDT BUY LIMIT IOC 0.01 @ 1000 (below the market: ends CANCELED, funds released)',
      'REPLAY_GUARD=off: autocannon cycles 500 pre-signed orders (it stalls on arrays of 10^4), which the replay guard would refuse after their first use; with the guard on, each order costs one more in-process map insert (Redis SET NX in the distributed mode)',
    ],
    env: { ...limits, ADMIN_TOKEN: workloads.adminToken },
    portBase: Number(process.env.BENCH_PORT_BASE ?? BENCH_PORTS.orderEntry),
    presign,
    afterRuns: async (exchange) => {
      embedded = await runOrderWorkloads(workloads, {
        ...exchange,
        cpuSeconds: () => cpuOfTree(exchange.pid),
        workDir: `${exchange.dataDir}/..`,
      });
    },
    afterStop: (dataDir) => printHops({ dataDir }),
  });
  if (!kafka || !embedded) return;
  const onKafka = await runDistributedOrderEntry({ ...workloads, brokers: kafka }, limits, presign);
  const rate = (results: { ordersPerSec: number }[]) => median(results.map((r) => r.ordersPerSec));
  console.log('');
  console.log(
    `${'Kafka against embedded (medians)'.padEnd(33)}${'embedded'.padEnd(18)}${'Kafka'.padEnd(18)}Kafka / embedded`,
  );
  console.log(
    compared(
      'IOC, 100 connections',
      median(embeddedIoc.map((r) => r.requestsPerSec)),
      median(onKafka.ioc.map((r) => r.requestsPerSec)),
      'orders/s',
    ),
  );
  console.log(
    compared(
      '  CPU per order',
      median(embeddedIoc.map((r) => r.cpuUs!)),
      median(onKafka.ioc.map((r) => r.cpuUs!)),
      'µs',
    ),
  );
  console.log(compared('crossing, 100 loops', rate(embedded.crossing), rate(onKafka.workloads.crossing), 'orders/s'));
  console.log(
    compared(
      'one at a time, p50',
      median(embedded.single.map((r) => r.p50Ms)),
      median(onKafka.workloads.single.map((r) => r.p50Ms)),
      'ms',
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
