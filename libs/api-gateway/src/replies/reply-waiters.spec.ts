import { ApiError } from '@exchange/platform';
import { causeOf } from './pending-replies';
import { ReplyWaiters } from './reply-waiters';

interface Event {
  commandId: string;
  orderId?: string;
  status?: string;
}

const keysOf = (e: Event): string[] => [causeOf(e.commandId), ...(e.orderId ? [`order:${e.orderId}`] : [])];
const outcome = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (v) => v,
    (e: unknown) => (e instanceof ApiError ? e.code : e),
  );

describe('reply waiters', () => {
  it('gives two requests about one order each the answer of its own command', async () => {
    const waiters = new ReplyWaiters<Event>(10);
    const first = waiters.wait('c1', (e) => (e.status === 'CANCELED' ? 'first done' : undefined), {
      alsoKeys: ['order:7'],
    });
    const second = waiters.wait(
      'c2',
      (e) => {
        if (e.commandId === 'c2' && e.status === 'REFUSED') throw new ApiError(-2011, 'pending');
        return undefined;
      },
      { alsoKeys: ['order:7'] },
    );
    for (const e of [
      { commandId: 'c1', orderId: '7', status: 'PENDING_CANCEL' },
      { commandId: 'c2', status: 'REFUSED' },
      { commandId: 'c1:0:s0', orderId: '7', status: 'CANCELED' },
    ]) {
      waiters.route(keysOf(e), e);
    }
    expect(await outcome(first.promise)).toBe('first done');
    expect(await outcome(second.promise)).toBe(-2011);
    expect(waiters.size).toBe(0);
  });

  it('routes what a command caused downstream to it by the id it descends from', () => {
    expect(causeOf('123')).toBe('123');
    expect(causeOf('123:0:s4')).toBe('123');
    expect(causeOf('123:0/credit')).toBe('123');
  });

  it('hands an event reached under two keys to its waiter once', async () => {
    const waiters = new ReplyWaiters<Event>(10);
    let seen = 0;
    const wait = waiters.wait('c1', () => (++seen === 2 ? seen : undefined), { alsoKeys: ['order:1'] });
    waiters.route(keysOf({ commandId: 'c1', orderId: '1' }), { commandId: 'c1', orderId: '1' });
    expect(seen).toBe(1);
    waiters.route(['c1'], { commandId: 'c1' });
    expect(await wait.promise).toBe(2);
  });

  it('refuses a wait past its capacity with -1016 and takes one again once a wait ended', () => {
    const waiters = new ReplyWaiters<Event>(2);
    waiters.wait('a', () => undefined);
    const b = waiters.wait('b', () => undefined);
    expect(() => waiters.wait('c', () => undefined)).toThrow(expect.objectContaining({ code: -1016 }));
    b.cancel();
    expect(() => waiters.wait('c', () => undefined)).not.toThrow();
    waiters.clear();
  });

  it('answers -1007 when nothing settles the wait in time', async () => {
    const waiters = new ReplyWaiters<Event>(2, 5);
    expect(await outcome(waiters.wait('a', () => undefined).promise)).toBe(-1007);
    expect(waiters.size).toBe(0);
  });
});
