// The soak's load: `concurrency` loops, each owning a pair of accounts, send crossing LIMIT orders
// (one account rests GTC, the other takes with IOC: each pair a trade) for `durationSec`, every
// request signed afresh. Sides alternate per round so balances oscillate instead of draining. The
// taker is IOC so that nothing but the makers ever rests: the book stays as large as the loops, and
// what the soak measures per order is not an open-order count that grows with the run. Prints a
// `progress <answered> <filled>` line every second and a JSON result as its last line.
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

export interface SoakAccount {
  apiKey: string;
  secretKey: string;
}

export interface CrossingLoadJob {
  url: string;
  accounts: SoakAccount[];
  concurrency: number;
  durationSec: number;
  symbol: string;
  price: string;
  quantity: string;
}

export interface CrossingLoadResult {
  answered: number;
  filled: number;
  failed: number;
  firstFailure?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

// Loops sharing an account can send the same order in the same millisecond: a client order id of
// this run's own keeps every signed text unique (the replay guard accepts a signature once).
const runId = randomBytes(4).toString('hex');
let sent = 0;

function postOrder(
  job: CrossingLoadJob,
  account: SoakAccount,
  side: 'BUY' | 'SELL',
  timeInForce: 'GTC' | 'IOC',
): Promise<{ status: number; body: string }> {
  const query = `symbol=${job.symbol}&side=${side}&type=LIMIT&timeInForce=${timeInForce}&price=${job.price}&quantity=${job.quantity}&newClientOrderId=soak${runId}-${++sent}&recvWindow=60000&timestamp=${Date.now()}`;
  const signature = createHmac('sha256', account.secretKey).update(query).digest('hex');
  const url = new URL(`/openapi/v1/order?${query}&signature=${signature}`, job.url);
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', agent, headers: { 'X-SERVICE-KEY': account.apiKey } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

async function run(job: CrossingLoadJob): Promise<CrossingLoadResult> {
  const result: CrossingLoadResult = { answered: 0, filled: 0, failed: 0 };
  const deadline = Date.now() + job.durationSec * 1000;
  const record = (answer: { status: number; body: string }): void => {
    result.answered++;
    if (answer.status !== 200) {
      result.failed++;
      result.firstFailure ??= `${answer.status} ${answer.body.slice(0, 200)}`;
    } else if (answer.body.includes('"FILLED"')) result.filled++;
  };
  const loop = async (index: number): Promise<void> => {
    const maker = job.accounts[(2 * index) % job.accounts.length]!;
    const taker = job.accounts[(2 * index + 1) % job.accounts.length]!;
    for (let round = 0; Date.now() < deadline; round++) {
      const makerSide = round % 2 === 0 ? 'BUY' : 'SELL';
      record(await postOrder(job, maker, makerSide, 'GTC'));
      record(await postOrder(job, taker, makerSide === 'BUY' ? 'SELL' : 'BUY', 'IOC'));
    }
  };
  const progress = setInterval(() => process.stdout.write(`progress ${result.answered} ${result.filled}\n`), 1000);
  await Promise.all(Array.from({ length: job.concurrency }, (_, i) => loop(i)));
  clearInterval(progress);
  return result;
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as CrossingLoadJob;
run(job)
  .then((result) => {
    process.stdout.write(JSON.stringify(result) + '\n');
    agent.destroy();
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
