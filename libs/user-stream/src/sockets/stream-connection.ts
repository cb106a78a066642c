import WebSocket from 'ws';
import type { AccountStream, FrameSink } from '../streaming/account-streams';

/** One client socket on one listenKey: what the sweep needs to keep it alive or end it. */
export class StreamConnection implements FrameSink {
  /** The last ping, or the connection time. */
  lastPingAt: number;
  awaitingPong = false;
  /** The last sign of life (a pong or a client ping). */
  lastSeen: number;

  constructor(
    readonly ws: WebSocket,
    readonly listenKey: string,
    /** The prepared stream until it is joined, then the account's live one. */
    public stream: AccountStream,
    readonly connectedAt: number,
    private readonly maxBufferedBytes: number,
    private readonly onSlowConsumer: () => void,
  ) {
    this.lastPingAt = connectedAt;
    this.lastSeen = connectedAt;
  }

  /** Sends the frame as text, or drops a client that does not read fast enough rather than buffer without bound. */
  deliver(frame: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      this.onSlowConsumer();
      this.ws.terminate();
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  ping(now: number): void {
    this.lastPingAt = now;
    this.awaitingPong = true;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.ping();
  }

  alive(now: number): void {
    this.lastSeen = now;
    this.awaitingPong = false;
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code, reason);
  }
}
