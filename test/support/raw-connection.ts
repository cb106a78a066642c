import { connect, type Socket } from 'node:net';
import { waitFor } from './wait-for';

/**
 * A plain TCP connection to a listening app, for what an HTTP client library will not send:
 * upgrades on any path, malformed request lines, headers trickled a byte at a time, resets.
 */
export class RawConnection {
  private chunks: Buffer[] = [];
  private ended = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    socket.on('close', () => (this.ended = true));
    // Resets and refusals are what these tests provoke; `closed` reports them.
    socket.on('error', () => undefined);
  }

  static async open(baseUrl: string): Promise<RawConnection> {
    const { hostname, port } = new URL(baseUrl);
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConnection(socket);
  }

  /** Sends `request`, then waits for the server to close the connection, and returns all it answered. */
  static async exchange(baseUrl: string, request: string | Buffer, timeoutMs = 10_000): Promise<string> {
    const connection = await RawConnection.open(baseUrl);
    connection.socket.write(request);
    await connection.waitClosed(timeoutMs);
    return connection.received();
  }

  received(): string {
    return Buffer.concat(this.chunks).toString('latin1');
  }

  get closed(): boolean {
    return this.ended;
  }

  async waitClosed(timeoutMs = 10_000): Promise<void> {
    await waitFor(() => this.ended, 'the server to close the connection', timeoutMs);
  }

  /** Ends with a TCP RST instead of a FIN: what a client that vanishes mid-request does. */
  reset(): void {
    this.socket.resetAndDestroy();
  }
}

/** Status code and JSON body of a raw HTTP answer. */
export function parseRawAnswer(text: string): { status: number; headers: string; body: unknown } {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? NaN);
  const rawBody = split < 0 ? '' : text.slice(split + 4);
  let body: unknown = rawBody;
  try {
    body = JSON.parse(rawBody);
  } catch {
    // Left as text: the assertion that follows will say what came back.
  }
  return { status, headers: head, body };
}
