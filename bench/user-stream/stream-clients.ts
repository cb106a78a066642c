// The client side of bench/user-stream: holds the sockets (one process, pinned to the load core)
// and measures what arrives. Latency is the receipt time minus T, the transaction time the event
// was created with (E may have been moved forward by a millisecond to stay strictly increasing).
// Frames are counted, not parsed: one process of clients must not be what limits the figures.
import WebSocket from 'ws';
import { percentile } from '../support/stats';
import { serveIpc } from './ipc-worker';

const sockets: WebSocket[] = [];
let received = 0;
let first = 0;
let last = 0;
let latencies: number[] = [];

const REPORT = Buffer.from('{"e":"executionReport"');
const T_KEY = Buffer.from('"T":');

/** Counts every frame; reads T of executionReports from the bytes, without parsing the JSON, so the clients stay cheaper than the server. */
function onFrame(data: WebSocket.RawData): void {
  const now = Date.now();
  received++;
  if (first === 0) first = now;
  last = now;
  const bytes = data as Buffer;
  if (bytes.compare(REPORT, 0, REPORT.length, 0, REPORT.length) !== 0) return;
  let at = bytes.indexOf(T_KEY) + T_KEY.length;
  let t = 0;
  for (let c = bytes[at]!; c >= 48 && c <= 57; c = bytes[++at]!) t = t * 10 + (c - 48);
  latencies.push(now - t);
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
  return {
    received,
    first,
    last,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    samples: sorted.length,
    open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length,
  };
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
