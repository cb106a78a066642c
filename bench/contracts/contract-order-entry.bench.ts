// bench/contracts/contract-order-entry: signed POST /openapi/contract/v1/order against signed POST
// /openapi/v1/order on the same embedded exchange in the same run (alternating runs), so the line is
// the cost of a contract order as a ratio of a spot order's. Run: `npm run bench:contract-order-entry`.
// Both are IOC BUYs below the market: every step runs (gateway → ledger lock → engine → ledger
// outcome → answer) and each ends with its hold released (spot CANCELED, contract EXPIRED).
import { createHmac } from 'node:crypto';
import { type PresignedRequest, runExchangeVsHello } from '../support/exchange-vs-hello';
import { BENCH_PORTS } from '../support/ports';

type Key = { apiKey: string; secretKey: string };

function presigned(key: Key, path: string, params: string): PresignedRequest[] {
  const query = `${params}&recvWindow=60000&timestamp=${Date.now()}`;
  const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
  return [
    { method: 'POST', path: `${path}?${query}&signature=${signature}`, headers: { 'X-SERVICE-KEY': key.apiKey } },
  ];
}

runExchangeVsHello({
  name: 'contract-order-entry',
  target: 'signed POST contract/v1/order',
  describe: [
    'exchange: embedded default (embedded log with fsync always), embedded PostgreSQL; weight and ORDERS limits raised to 10^9; REPLAY_GUARD=off as in bench:order-entry',
    'contract: BTC-SWAP-USDT BUY_OPEN IOC 1 @ 1000, leverage 10 (locks margin and fees, ends EXPIRED, released); the demo user moves 100000 USDT to its contracts account first',
    'spot (baseline): BTCUSDT BUY LIMIT IOC 0.01 @ 1000 (reserves quote, ends CANCELED, released)',
    'both signed by the load worker as sent, each with a client order id of its own (a contract order requires one, unique among open orders)',
  ],
  env: {
    RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000',
    RATE_LIMIT_ORDERS_PER_SECOND: '1000000000',
    RATE_LIMIT_ORDERS_PER_DAY: '1000000000',
    REPLAY_GUARD: 'off',
  },
  portBase: BENCH_PORTS.contractOrderEntry,
  setup: async (baseUrl, demo) => {
    const [transfer] = presigned(
      demo,
      '/openapi/v1/transfer',
      'fromAccountType=1&toAccountType=3&tokenId=USDT&amount=100000',
    );
    const answer = await fetch(`${baseUrl}${transfer!.path}`, { method: 'POST', headers: transfer!.headers });
    if (!answer.ok) throw new Error(`transfer to the contracts account: ${answer.status} ${await answer.text()}`);
  },
  presign: (demo) => ({
    ...demo,
    method: 'POST',
    path: '/openapi/contract/v1/order',
    query: `symbol=BTC-SWAP-USDT&side=BUY_OPEN&timeInForce=IOC&price=1000&quantity=1&leverage=10&clientOrderId=c${Date.now()}-{n}`,
  }),
  baseline: {
    target: 'signed POST /openapi/v1/order',
    presign: (demo) => ({
      ...demo,
      method: 'POST',
      path: '/openapi/v1/order',
      query: `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01&newClientOrderId=s${Date.now()}-{n}`,
    }),
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
