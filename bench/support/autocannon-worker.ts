// One autocannon run in its own (pinned) process. Argument: a JSON file with
// { url, connections, pipelining, durationSec, requests?: [{ method, path, headers, body }], signed? }.
// `signed` signs each request as it is sent, its query's `{n}` replaced by a counter: requests that
// must differ (client order ids unique among open orders) even when every connection sends at once.
// Prints { requestsPerSec, p50Ms, p99Ms, errors, non2xx, total } as its last line.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

interface Job {
  url: string;
  connections: number;
  pipelining: number;
  durationSec: number;
  requests?: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
  signed?: { apiKey: string; secretKey: string; method: string; path: string; query: string };
}

function signedRequests(t: NonNullable<Job['signed']>): autocannon.Request[] {
  let n = 0;
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    const query = `${t.query.replaceAll('{n}', String(++n))}&recvWindow=60000&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', t.secretKey).update(query).digest('hex');
    return {
      ...request,
      method: t.method as autocannon.Request['method'],
      path: `${t.path}?${query}&signature=${signature}`,
      headers: { 'X-SERVICE-KEY': t.apiKey },
    };
  };
  return [{ method: t.method as autocannon.Request['method'], path: t.path, setupRequest }];
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    pipelining: job.pipelining,
    duration: job.durationSec,
    requests: job.signed ? signedRequests(job.signed) : (job.requests as autocannon.Request[] | undefined),
  });
  process.stdout.write(
    JSON.stringify({
      requestsPerSec: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
      total: result.requests.total,
    }) + '\n',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
