import { EventEmitter } from 'node:events';
import { SocketGuard } from '@exchange/platform';
import WebSocket from 'ws';
import type { AccountStream } from '../streaming/account-streams';
import { StreamConnection } from './stream-connection';

const guard = (slowConsumer?: () => void): SocketGuard =>
  new SocketGuard(
    {
      maxBufferedBytes: 1024,
      maxMessagesPerSecond: 20,
      maxSocketsPerIp: 10,
      maxPayloadBytes: 1024,
      trustedProxies: '',
    },
    { slowConsumer },
  );

/** The parts of a ws socket a connection touches, with a real cork count on a fake TCP socket. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  writes = 0;
  terminated = false;
  private corks = 0;
  readonly _socket = {
    cork: () => void this.corks++,
    uncork: () => {
      if (--this.corks === 0) this.writes++;
    },
  };

  send(data: Buffer): void {
    this.sent.push(data.toString());
    if (this.corks === 0) this.writes++;
  }

  terminate(): void {
    this.terminated = true;
    this.readyState = WebSocket.CLOSED;
  }
}

const stream = {} as AccountStream;
const nextTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

describe('a stream connection', () => {
  it('sends the frames of one tick in one write', async () => {
    const ws = new FakeSocket();
    const connection = new StreamConnection(ws as unknown as WebSocket, 'k', stream, 0, guard());
    connection.deliver(Buffer.from('{"e":"executionReport"}'));
    connection.deliver(Buffer.from('{"e":"outboundAccountInfo"}'));
    await nextTick();
    expect(ws.sent).toEqual(['{"e":"executionReport"}', '{"e":"outboundAccountInfo"}']);
    expect(ws.writes).toBe(1);
  });

  it('drops a client whose unsent frames passed the bound, instead of buffering more', async () => {
    const ws = new FakeSocket();
    let slow = 0;
    const connection = new StreamConnection(
      ws as unknown as WebSocket,
      'k',
      stream,
      0,
      guard(() => slow++),
    );
    ws.bufferedAmount = 1025;
    connection.deliver(Buffer.from('{}'));
    expect(ws).toMatchObject({ terminated: true, sent: [] });
    expect(slow).toBe(1);
    connection.deliver(Buffer.from('{}'));
    expect(slow).toBe(1);
  });

  it('counts only what was waiting before the tick, not the frames it is gathering', async () => {
    const ws = new FakeSocket();
    const connection = new StreamConnection(ws as unknown as WebSocket, 'k', stream, 0, guard());
    connection.deliver(Buffer.from('a'));
    ws.bufferedAmount = 5000;
    connection.deliver(Buffer.from('b'));
    expect(ws.terminated).toBe(false);
    await nextTick();
    connection.deliver(Buffer.from('c'));
    expect(ws.terminated).toBe(true);
  });
});
