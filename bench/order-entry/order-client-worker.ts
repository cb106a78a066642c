// The order clients of bench:order-entry that autocannon cannot be: every request signed afresh
// and sent with an X-Request-Id of its own (the correlation id the exchange puts on every record
// the order causes, so pipeline-hops.ts can find them), its send and answer times kept.
// - crossing: `concurrency` loops, each a pair of accounts, LIMIT GTC orders that cross (one rests,
//   the other takes it: each pair a trade), sides alternating so balances oscillate, for durationSec.
// - single: one loop, one order at a time (IOC below the market), `orders` of them.
// Argument: a JSON file holding an OrderClientJob. Prints an OrderClientResult as its last line.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from '../support/stats';

export interface OrderClientJob {
  mode: 'crossing' | 'single';
  url: string;
  accounts: { apiKey: string; secretKey: string }[];
  concurrency: number;
  durationSec: number;
  orders: number;
  /** Prefix of the request ids: tells this run's orders apart in the journal. */
  idPrefix: string;
}

export interface OrderClientResult {
  answered: number;
  failed: number;
  ordersPerSec: number;
  p50Ms: number;
  p99Ms: number;
  firstFailure?: string;
  /** request id → [sent, answered], epoch ms with fractions (the clock the records' timestamps use). */
  times: Record<string, [number, number]>;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const now = (): number => performance.timeOrigin + performance.now();

function post(
  job: OrderClientJob,
  account: OrderClientJob['accounts'][number],
  params: string,
  id: string,
): Promise<{ status: number; body: string }> {
  const query = `${params}&newClientOrderId=${id}&recvWindow=60000&timestamp=${Date.now()}`;
  const signature = createHmac('sha256', account.secretKey).update(query).digest('hex');
  const url = new URL(`/openapi/v1/order?${query}&signature=${signature}`, job.url);
  return new Promise((done, fail) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'X-SERVICE-KEY': account.apiKey, 'X-Request-Id': id } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

async function run(job: OrderClientJob): Promise<OrderClientResult> {
  const result: OrderClientResult = { answered: 0, failed: 0, ordersPerSec: 0, p50Ms: 0, p99Ms: 0, times: {} };
  const latencies: number[] = [];
  let sent = 0;
  const send = async (account: OrderClientJob['accounts'][number], params: string): Promise<void> => {
    const id = `${job.idPrefix}${++sent}`;
    const start = now();
    const answer = await post(job, account, params, id);
    const end = now();
    result.times[id] = [start, end];
    latencies.push(end - start);
    result.answered++;
    if (answer.status === 200) return;
    result.failed++;
    result.firstFailure ??= `${answer.status} ${answer.body.slice(0, 200)}`;
  };
  const started = now();
  if (job.mode === 'single') {
    for (let i = 0; i < job.orders; i++)
      await send(job.accounts[0]!, 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01');
  } else {
    const deadline = Date.now() + job.durationSec * 1000;
    const loop = async (index: number): Promise<void> => {
      const maker = job.accounts[(2 * index) % job.accounts.length]!;
      const taker = job.accounts[(2 * index + 1) % job.accounts.length]!;
      for (let round = 0; Date.now() < deadline; round++) {
        const side = round % 2 === 0 ? 'BUY' : 'SELL';
        await send(maker, `symbol=BTCUSDT&side=${side}&type=LIMIT&timeInForce=GTC&price=30000&quantity=0.001`);
        await send(
          taker,
          `symbol=BTCUSDT&side=${side === 'BUY' ? 'SELL' : 'BUY'}&type=LIMIT&timeInForce=GTC&price=30000&quantity=0.001`,
        );
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, (_, i) => loop(i)));
  }
  result.ordersPerSec = result.answered / ((now() - started) / 1000);
  latencies.sort((a, b) => a - b);
  result.p50Ms = percentile(latencies, 50);
  result.p99Ms = percentile(latencies, 99);
  return result;
}

run(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as OrderClientJob)
  .then((result) => {
    process.stdout.write(JSON.stringify(result) + '\n');
    agent.destroy();
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
