import type { Socket } from 'node:net';
import type { SocketGuard } from '@exchange/platform';
import WebSocket from 'ws';
import type { AccountStream, FrameSink } from '../streaming/account-streams';

/** One client socket on one listenKey: what the sweep needs to keep it alive or end it. */
export class StreamConnection implements FrameSink {
  /** The last ping, or the connection time. */
  lastPingAt: number;
  awaitingPong = false;
  /** The last sign of life (a pong or a client ping). */
  lastSeen: number;
  /** Frames of this tick are being collected into one write. */
  private corked = false;

  constructor(
    readonly ws: WebSocket,
    readonly listenKey: string,
    /** The prepared stream until it is joined, then the account's live one. */
    public stream: AccountStream,
    readonly connectedAt: number,
    /** Every write goes through it: a socket past the unsent-bytes cap is dropped there. */
    private readonly guard: Pick<SocketGuard, 'writable'>,
  ) {
    this.lastPingAt = connectedAt;
    this.lastSeen = connectedAt;
  }

  /**
   * Sends the frame as text, or drops a client that does not read fast enough rather than buffer
   * without bound. The frames of one tick (a consumed batch: an event's executionReport and
   * outboundAccountInfo, and any others) leave in one write instead of a system call each.
   */
  deliver(frame: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.corked) {
      // Measured before this tick's frames, which are only being gathered.
      if (!this.guard.writable(this.ws)) return;
      this.cork();
    }
    this.ws.send(frame, { binary: false });
  }

  /** ws keeps its socket to itself; corking it is the one way to gather frames into one write. */
  private cork(): void {
    const socket = (this.ws as unknown as { _socket?: Socket })._socket;
    if (!socket) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  ping(now: number): void {
    this.lastPingAt = now;
    this.awaitingPong = true;
    if (this.guard.writable(this.ws)) this.ws.ping();
  }

  alive(now: number): void {
    this.lastSeen = now;
    this.awaitingPong = false;
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code, reason);
  }
}
