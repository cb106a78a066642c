// bench/order-entry: signed POST /openapi/v1/order (the whole pipeline: gateway → ledger reserve →
// engine → ledger outcome → answer) on the embedded default, or over Kafka with BENCH_KAFKA=1 and
// KAFKA_BROKERS, against a bare Fastify hello-world in the same run. Run: `npm run bench:order-entry`.
// The orders are IOC BUYs below the market: each goes through every step and ends CANCELED, so
// funds are released and the run can last as long as wanted. Then, on the same exchange, crossing
// orders from several accounts and one order at a time (order-workloads.ts), each with its CPU per
// order, and the hops of every workload read from the journal once the exchange stopped.
// BENCH_RUNS, BENCH_DURATION_SEC and BENCH_SINGLE_ORDERS (300) size it.
import { createHmac, randomBytes } from 'node:crypto';
import { runExchangeVsHello } from '../support/exchange-vs-hello';
import { BENCH_PORTS } from '../support/ports';
import { printHops, runOrderWorkloads, type WorkloadSettings } from './order-workloads';

const kafka = process.env.BENCH_KAFKA === '1' && process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS : '';
const namespace = kafka ? `bench${Date.now()}` : '';
const workloads: WorkloadSettings = {
  runs: Number(process.env.BENCH_RUNS ?? 3),
  durationSec: Number(process.env.BENCH_DURATION_SEC ?? 10),
  singleOrders: Number(process.env.BENCH_SINGLE_ORDERS ?? 300),
  adminToken: randomBytes(16).toString('hex'),
  kafka: kafka ? { brokers: kafka, namespace } : undefined,
};

runExchangeVsHello({
  name: 'order-entry',
  target: 'signed POST /openapi/v1/order',
  describe: [
    `exchange: ${kafka ? `all services in one process on Kafka ${kafka}` : 'embedded default (embedded log with fsync always)'}, embedded PostgreSQL; weight and ORDERS limits raised to 10^9`,
    'each request: POST /openapi/v1/order BTCUSDT BUY LIMIT IOC 0.01 @ 1000 (below the market: ends CANCELED, funds released)',
    'REPLAY_GUARD=off: autocannon cycles 500 pre-signed orders (it stalls on arrays of 10^4), which the replay guard would refuse after their first use; with the guard on, each order costs one more in-process map insert (Redis SET NX in the distributed mode)',
  ],
  env: {
    RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
    RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
    RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
    REPLAY_GUARD: 'off',
    KAFKA_BROKERS: kafka,
    EVENT_LOG_NAMESPACE: namespace,
    ADMIN_TOKEN: workloads.adminToken,
  },
  portBase: Number(process.env.BENCH_PORT_BASE ?? BENCH_PORTS.orderEntry),
  presign: ({ apiKey, secretKey }) => {
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
  },
  afterRuns: (exchange) => runOrderWorkloads(workloads, exchange),
  afterStop: (dataDir) => printHops(workloads, dataDir),
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
