import { SocketGuard } from '@exchange/platform';
import type { WebSocket } from 'ws';
import { type MarketChange, MarketFold } from '../domain';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import { MAX_BUFFERED_BYTES, StreamHub } from './stream-hub';

const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);
const guard = (slowConsumer?: () => void): SocketGuard =>
  new SocketGuard(
    {
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      maxMessagesPerSecond: 20,
      maxSocketsPerIp: 10,
      maxPayloadBytes: 4096,
      trustedProxies: '',
    },
    { slowConsumer },
  );

/** What the hub uses of a ws socket: an open state, its unsent bytes, send and terminate. */
class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  terminated = false;

  send(text: string): void {
    this.sent.push(text);
  }

  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

describe('the public stream hub', () => {
  const fold = new MarketFold(testSymbols, onePartition);
  const events = new OrderEventFactory();
  const trade = (at: number): MarketChange[] => {
    const changes: MarketChange[] = [];
    fold.apply(0, events.trade('BTCUSDT', t0 + at, '101', '0.5'), changes);
    return changes;
  };

  it('drops a socket whose unsent frames pass the bound instead of buffering more, and keeps serving the others', () => {
    const dropped: number[] = [];
    const hub = new StreamHub(
      fold,
      () => t0,
      guard(() => dropped.push(1)),
    );
    const [slow, fast] = [new FakeSocket(), new FakeSocket()];
    for (const socket of [slow, fast])
      expect(hub.subscribe(socket as unknown as WebSocket, 'BTCUSDT', 'trade')).toBe(true);
    hub.publish(trade(1));
    expect([slow.sent.length, fast.sent.length]).toEqual([2, 2]);

    slow.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    hub.publish(trade(2));
    expect(slow.terminated).toBe(true);
    expect(slow.sent).toHaveLength(2);
    expect(fast.sent).toHaveLength(3);
    expect(dropped).toEqual([1]);
    expect(hub.socketCount).toBe(1);

    hub.publish(trade(3));
    expect(fast.sent).toHaveLength(4);
    expect(dropped).toEqual([1]);
  });

  it('sends a socket at the bound its frames still', () => {
    const hub = new StreamHub(fold, () => t0, guard());
    const socket = new FakeSocket();
    hub.subscribe(socket as unknown as WebSocket, 'BTCUSDT', 'trade');
    socket.bufferedAmount = MAX_BUFFERED_BYTES;
    hub.publish(trade(4));
    expect(socket.terminated).toBe(false);
    expect(socket.sent).toHaveLength(2);
  });
});
