import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { SocketGuard } from './socket-guard';

/** What the guard touches of a ws socket. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  paused = false;
  terminated = false;

  send(data: string): void {
    this.sent.push(data);
  }
  ping(): void {
    this.sent.push('<ping>');
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = WebSocket.CLOSING;
  }
  pause(): void {
    this.paused = true;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = WebSocket.CLOSED;
  }
}

describe('the socket guard', () => {
  let now = 0;
  const guard = (events = {}): SocketGuard =>
    new SocketGuard(
      { maxBufferedBytes: 100, maxMessagesPerSecond: 3, maxSocketsPerIp: 2, maxPayloadBytes: 64, trustedProxies: '' },
      events,
      () => now,
    );

  it('passes messages up to the rate, then closes with 1008, stops reading and handles no more', () => {
    let abusive = 0;
    const g = guard({ abusive: () => abusive++ });
    const ws = new FakeSocket();
    const handled: string[] = [];
    g.onMessage(ws as unknown as WebSocket, (data) => handled.push(data.toString()));
    for (const m of ['a', 'b', 'c']) ws.emit('message', Buffer.from(m), false);
    now += 1000;
    for (const m of ['d', 'e', 'f', 'g', 'h']) ws.emit('message', Buffer.from(m), false);
    expect(handled).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect({ closedWith: ws.closedWith, paused: ws.paused, abusive }).toEqual({
      closedWith: 1008,
      paused: true,
      abusive: 1,
    });
  });

  it('drops a socket past the unsent-bytes cap on any write, pings and replies alike', () => {
    let slow = 0;
    const g = guard({ slowConsumer: () => slow++ });
    const ws = new FakeSocket();
    g.send(ws as unknown as WebSocket, 'pong');
    ws.bufferedAmount = 101;
    g.ping(ws as unknown as WebSocket);
    g.send(ws as unknown as WebSocket, 'error');
    expect({ sent: ws.sent, terminated: ws.terminated, slow }).toEqual({ sent: ['pong'], terminated: true, slow: 1 });
  });
});
