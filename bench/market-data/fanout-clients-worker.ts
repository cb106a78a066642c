// The subscribers of the fan-out benchmark, in their own (pinned) process. Argument: a JSON file
// with { url, sockets, subscribe, warmupSec, durationSec }. Opens the sockets, sends `subscribe`
// on each, and after the warm-up counts the frames received for durationSec, with their delay
// from the frame's sendTime. Prints { messagesPerSec, framesPerSocketPerSec, p50Ms, p99Ms, sockets }.
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { percentile } from '../support/stats';

interface Job {
  url: string;
  sockets: number;
  subscribe: unknown;
  warmupSec: number;
  durationSec: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
  let measuring = false;
  let received = 0;
  const delays: number[] = [];
  const sockets = await Promise.all(
    Array.from({ length: job.sockets }, async () => {
      const ws = new WebSocket(job.url);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.on('message', (data) => {
        if (!measuring) return;
        received += 1;
        // Sample delays: parsing every frame of every socket would measure this process, not the server.
        if (received % 50 === 0)
          delays.push(Date.now() - (JSON.parse(data.toString()) as { sendTime: number }).sendTime);
      });
      ws.send(JSON.stringify(job.subscribe));
      return ws;
    }),
  );
  process.stderr.write(`  ${sockets.length} sockets subscribed\n`);
  await new Promise((resolve) => setTimeout(resolve, job.warmupSec * 1000));
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, job.durationSec * 1000));
  measuring = false;
  const sorted = delays.sort((a, b) => a - b);
  for (const ws of sockets) ws.terminate();
  process.stdout.write(
    JSON.stringify({
      messagesPerSec: received / job.durationSec,
      framesPerSocketPerSec: received / job.durationSec / job.sockets,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      sockets: job.sockets,
    }) + '\n',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
