// One autocannon run in its own (pinned) process. Argument: a JSON file with
// { url, connections, pipelining, durationSec, requests?: [{ method, path, headers, body }] }.
// Prints { requestsPerSec, p50Ms, p99Ms, errors, non2xx } as its last line.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

interface Job {
  url: string;
  connections: number;
  pipelining: number;
  durationSec: number;
  requests?: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    pipelining: job.pipelining,
    duration: job.durationSec,
    requests: job.requests as autocannon.Request[] | undefined,
  });
  process.stdout.write(
    JSON.stringify({ requestsPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx }) + '\n',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
