// A DevTools protocol session with another Node process started with `--inspect=127.0.0.1:<port>`:
// Node's own `inspector` module reaches only the process it runs in, so a benchmark that measures
// the exchange from outside talks to it over the inspector's WebSocket instead.
import { createWriteStream } from 'node:fs';
import WebSocket from 'ws';

export interface HeapAfterGc {
  /** V8 heap used once a full collection has run: what is live, not what awaits collection. */
  heapUsedBytes: number;
  /** Memory of Buffers and ArrayBuffers outside the V8 heap (caches of bytes live there). */
  externalBytes: number;
  /** How long the collection and the reads took: the pause the measurement cost the exchange. */
  pauseMs: number;
}

export class DevToolsSession {
  private nextId = 1;
  private readonly pending = new Map<number, { done: (result: unknown) => void; fail: (error: Error) => void }>();
  private readonly listeners = new Map<string, (params: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.receive(JSON.parse(data.toString('utf8'))));
    socket.on('close', () => {
      for (const call of this.pending.values()) call.fail(new Error('DevTools session closed'));
      this.pending.clear();
    });
  }

  /** Connects to the first target the inspector on `port` lists (a Node process has one). */
  static async connect(port: number): Promise<DevToolsSession> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise<void>((done, fail) => {
      socket.once('open', () => done());
      socket.once('error', fail);
    });
    return new DevToolsSession(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((done, fail) => {
      this.pending.set(id, { done: done as (result: unknown) => void, fail });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /**
   * A full collection, then the heap used and the external memory. The collection is what makes
   * the figure precise: heap used between collections swings by hundreds of MB with garbage.
   */
  async heapAfterGc(): Promise<HeapAfterGc> {
    const started = Date.now();
    await this.send('HeapProfiler.collectGarbage');
    const usage = await this.send<{ usedSize: number }>('Runtime.getHeapUsage');
    const memory = await this.send<{ result: { value: { external: number } } }>('Runtime.evaluate', {
      expression: 'process.memoryUsage()',
      returnByValue: true,
    });
    return {
      heapUsedBytes: usage.usedSize,
      externalBytes: memory.result.value.external,
      pauseMs: Date.now() - started,
    };
  }

  /** Writes a heap snapshot (which collects garbage first) to `path`, to open in Chrome DevTools. */
  async writeHeapSnapshot(path: string): Promise<void> {
    const file = createWriteStream(path);
    this.listeners.set('HeapProfiler.addHeapSnapshotChunk', (params) =>
      file.write((params as { chunk: string }).chunk),
    );
    try {
      await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      this.listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      await new Promise<void>((done, fail) => file.end((error?: Error | null) => (error ? fail(error) : done())));
    }
  }

  close(): void {
    this.socket.close();
  }

  private receive(message: {
    id?: number;
    method?: string;
    params?: unknown;
    result?: unknown;
    error?: { message: string };
  }): void {
    if (message.id === undefined) {
      if (message.method) this.listeners.get(message.method)?.(message.params);
      return;
    }
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (message.error) call.fail(new Error(message.error.message));
    else call.done(message.result);
  }
}
