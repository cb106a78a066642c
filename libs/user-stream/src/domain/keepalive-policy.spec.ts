import { keepaliveAction, MAX_CONNECTION_MS } from './keepalive-policy';

describe('keep-alive of a socket', () => {
  const fresh = { connectedAt: 0, lastPingAt: 0, awaitingPong: false, lastSeen: 0 };

  it('pings every 30 s and waits while the answer may come', () => {
    expect(keepaliveAction(fresh, 29_999)).toBe('none');
    expect(keepaliveAction(fresh, 30_000)).toBe('ping');
    expect(keepaliveAction({ ...fresh, lastPingAt: 30_000, awaitingPong: true }, 59_999)).toBe('none');
  });

  it('drops a socket that has not answered for 60 s', () => {
    expect(keepaliveAction({ ...fresh, lastPingAt: 30_000, awaitingPong: true }, 60_000)).toBe('drop');
  });

  it('pings first when the clock jumps ahead, rather than dropping a socket that answered', () => {
    expect(keepaliveAction({ ...fresh, lastPingAt: 30_000, lastSeen: 30_001 }, 3_000_000)).toBe('ping');
  });

  it('retires every socket at 24 hours', () => {
    expect(
      keepaliveAction(
        { ...fresh, lastSeen: MAX_CONNECTION_MS - 1, lastPingAt: MAX_CONNECTION_MS - 1 },
        MAX_CONNECTION_MS,
      ),
    ).toBe('retire');
  });
});
