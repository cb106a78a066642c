import WebSocket from 'ws';
import { waitFor } from './wait-for';

export type Frame = Record<string, unknown> & { e?: string; E?: number };

/** A real `ws` client on the user data stream that keeps every frame, pings and the close it got. */
export class StreamClient {
  readonly frames: Frame[] = [];
  pings = 0;
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Frame));
    ws.on('ping', () => this.pings++);
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Opens `/openapi/ws/<listenKey>` on the app at `baseUrl` (http://…). */
  static async connect(
    baseUrl: string,
    listenKey: string,
    options: { autoPong?: boolean } = {},
  ): Promise<StreamClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/openapi/ws/${listenKey}`, {
      autoPong: options.autoPong ?? true,
    });
    const client = new StreamClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** The HTTP answer that refused the upgrade: status and parsed body. */
  static async refusal(baseUrl: string, path: string): Promise<{ status: number; body: unknown }> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => reject(new Error(`${path} opened a stream`)));
      ws.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      });
      ws.once('error', () => undefined);
    });
  }

  of(type: string): Frame[] {
    return this.frames.filter((f) => f.e === type);
  }

  reportsOf(orderId: string): Frame[] {
    return this.frames.filter((f) => f.e === 'executionReport' && f.i === orderId);
  }

  async waitForFrames(what: string, check: (frames: Frame[]) => boolean, timeoutMs = 20_000): Promise<void> {
    await waitFor(() => check(this.frames), what, timeoutMs);
  }

  async waitForClose(timeoutMs = 20_000): Promise<{ code: number; reason: string }> {
    await waitFor(() => this.closed !== undefined, 'the socket to close', timeoutMs);
    return this.closed!;
  }

  /** Sends `{"ping":n}` and waits for `{"pong":n}`: the server has read everything sent before. */
  async roundTrip(n: number): Promise<void> {
    this.ws.send(JSON.stringify({ ping: n }));
    await this.waitForFrames(`pong ${n}`, (frames) => frames.some((f) => f.pong === n), 10_000);
  }

  close(): void {
    this.ws.terminate();
  }
}
