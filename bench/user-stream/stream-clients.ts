// The client side of bench/user-stream: holds the sockets (one process, pinned to the load core)
// and measures what arrives. Latency is the receipt time minus T, the transaction time the event
// was created with (E may have been moved forward by a millisecond to stay strictly increasing).
import WebSocket from 'ws';
import { percentile } from '../support/stats';
import { serveIpc } from './ipc-worker';

const sockets: WebSocket[] = [];
let received = 0;
let first = 0;
let last = 0;
let latencies: number[] = [];

function onFrame(data: WebSocket.RawData): void {
  const now = Date.now();
  received++;
  if (first === 0) first = now;
  last = now;
  const frame = JSON.parse(data.toString()) as { e?: string; T?: number };
  if (frame.e === 'executionReport' && typeof frame.T === 'number') latencies.push(now - frame.T);
}

async function connectAll(urls: string[]): Promise<number> {
  const batch = 250;
  for (let i = 0; i < urls.length; i += batch) {
    await Promise.all(
      urls.slice(i, i + batch).map(
        (url) =>
          new Promise<void>((done, fail) => {
            const ws = new WebSocket(url, { perMessageDeflate: false });
            ws.on('message', onFrame);
            ws.once('open', () => {
              sockets.push(ws);
              done();
            });
            ws.once('error', fail);
          }),
      ),
    );
  }
  return sockets.length;
}

async function collect(expected: number, timeoutMs: number): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const sorted = latencies.sort((a, b) => a - b);
  return { received, first, last, p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length, open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length };
}

serveIpc(async (message) => {
  switch (message.type) {
    case 'connect':
      return { connected: await connectAll(message.urls as string[]) };
    case 'arm':
      received = 0;
      first = 0;
      last = 0;
      latencies = [];
      return {};
    case 'collect':
      return collect(message.expected as number, message.timeoutMs as number);
    case 'close':
      for (const ws of sockets.splice(0)) ws.terminate();
      return {};
    default:
      throw new Error(`stream-clients: unknown message ${String(message.type)}`);
  }
});
