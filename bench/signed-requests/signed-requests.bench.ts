// bench/signed-requests: signed GET /openapi/v1/account on the embedded default against a bare
// Fastify hello-world, same machine, same load tool, same run. Run: `npm run bench:signed-requests`.
import { createHmac } from 'node:crypto';
import { runExchangeVsHello } from '../support/exchange-vs-hello';
import { BENCH_PORTS } from '../support/ports';

runExchangeVsHello({
  name: 'signed-requests',
  target: 'signed GET /openapi/v1/account',
  describe: [
    'exchange: embedded default (embedded log with fsync always, embedded PostgreSQL), RATE_LIMIT_WEIGHT_PER_MINUTE=1000000000',
  ],
  env: { RATE_LIMIT_WEIGHT_PER_MINUTE: '1000000000' },
  portBase: BENCH_PORTS.signedRequests,
  // A few hundred distinct requests, cycled: autocannon itself stalls (timeouts) on arrays of 10^4.
  presign: ({ apiKey, secretKey }) => {
    const start = Date.now();
    return Array.from({ length: 500 }, (_, i) => {
      const query = `recvWindow=60000&timestamp=${start - (i % 1000)}`;
      const signature = createHmac('sha256', secretKey).update(query).digest('hex');
      return {
        method: 'GET',
        path: `/openapi/v1/account?${query}&signature=${signature}`,
        headers: { 'X-SERVICE-KEY': apiKey },
      };
    });
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
