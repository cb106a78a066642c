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

/**
 * A WebSocket client that never reads: after the handshake its socket is paused, so whatever the
 * server writes piles up on the server's side, as with a client on a dead link or an attacker.
 */
export class NonReadingWebSocket {
  private constructor(private readonly connection: RawConnection) {}

  static async open(baseUrl: string, path: string): Promise<NonReadingWebSocket> {
    const connection = await RawConnection.open(baseUrl);
    connection.socket.write(
      `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    await waitFor(() => connection.received().includes('\r\n\r\n') || connection.closed, `the handshake of ${path}`);
    if (!connection.received().startsWith('HTTP/1.1 101'))
      throw new Error(`${path} refused the upgrade: ${connection.received()}`);
    connection.socket.pause();
    return new NonReadingWebSocket(connection);
  }

  get closed(): boolean {
    return this.connection.closed || this.connection.socket.destroyed;
  }

  /** Sends `text` as masked frames until the server cuts the connection or `maxBytes` went out; returns the bytes sent. */
  async flood(text: string, maxBytes: number): Promise<number> {
    const one = maskedTextFrame(Buffer.from(text));
    // Many frames per write: one write per 7-byte frame would measure the client, not the server.
    const frame = Buffer.concat(Array.from({ length: Math.max(1, Math.floor(65536 / one.length)) }, () => one));
    const socket = this.connection.socket;
    let sent = 0;
    while (!this.closed && sent < maxBytes) {
      sent += frame.length;
      if (!socket.write(frame)) {
        await new Promise<void>((resolve) => {
          socket.once('drain', resolve);
          socket.once('close', resolve);
        });
      }
    }
    return sent;
  }

  destroy(): void {
    this.connection.socket.destroy();
  }
}

/** A client-to-server text frame (RFC 6455: clients mask every frame). */
function maskedTextFrame(payload: Buffer): Buffer {
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}
