import 'reflect-metadata';
import Redis from 'ioredis';
import { ManualClock } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { realServiceAddress } from '../../../test/support/real-services';
import { signedRequest } from '../../../test/support/signed-client';
import { StreamClient } from '../../../test/support/stream-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

// Waits on a shared machine and a real broker can pass Jest's default 5 s; each wait has its own deadline.
jest.setTimeout(60_000);

const MINUTE = 60_000;
const redisUrl = realServiceAddress('REDIS_URL', 'a listenKey removed from Redis without an announcement');

/** listenKey expiry, keep-alive and the 24-hour cap, driven by an injected clock. */
describe('user data stream over time', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let user: TestUser;
  const clients: StreamClient[] = [];

  const stream = async (path: string, query: Record<string, string> = {}) =>
    signedRequest<{ listenKey: string; code?: number }>(
      exchange.baseUrl,
      path === 'POST' ? 'POST' : path,
      '/openapi/v1/userDataStream',
      user.key,
      { timestamp: clock.now(), query },
    );
  const connect = async (listenKey: string, autoPong = true): Promise<StreamClient> => {
    const client = await StreamClient.connect(exchange.baseUrl, listenKey, { autoPong });
    clients.push(client);
    return client;
  };
  /** Moves the clock and waits until the sweep has seen the new time (it pings a socket quiet for 30 s). */
  const advance = async (ms: number, witness: StreamClient): Promise<void> => {
    const pings = witness.pings;
    clock.advance(ms);
    await waitFor(
      () => witness.pings > pings || witness.closed !== undefined,
      'the sweep to run at the new time',
      10_000,
    );
  };

  beforeAll(async () => {
    // The sweep runs every 50 ms so the clock's jumps are seen at once.
    exchange = await startTestExchange({
      clock,
      onKafkaWhenAvailable: true,
      env: { USER_STREAM_SWEEP_INTERVAL_MS: '50' },
    });
    user = await createFundedUser(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await exchange.close();
  });

  it('sends listenKeyExpired once to every socket of a key that was not kept alive, then closes them', async () => {
    const listenKey = (await stream('POST')).body.listenKey;
    const sockets = [await connect(listenKey), await connect(listenKey)];
    await advance(59 * MINUTE, sockets[0]!);
    expect(sockets.map((s) => s.closed)).toEqual([undefined, undefined]);
    clock.advance(2 * MINUTE);
    for (const socket of sockets) {
      expect(await socket.waitForClose()).toEqual({ code: 1000, reason: 'listenKey expired' });
      expect(socket.of('listenKeyExpired')).toEqual([{ e: 'listenKeyExpired', E: expect.any(Number), listenKey }]);
    }
    expect(sockets[0]!.of('listenKeyExpired')[0]!.E).toBeGreaterThanOrEqual(clock.now());
    expect(await StreamClient.refusal(exchange.baseUrl, `/openapi/ws/${listenKey}`)).toMatchObject({
      status: 400,
      body: { code: -1125 },
    });
  });

  it('keeps the stream of a key that is kept alive with PUT past its first 60 minutes', async () => {
    const listenKey = (await stream('POST')).body.listenKey;
    const socket = await connect(listenKey);
    await advance(50 * MINUTE, socket);
    expect((await stream('PUT', { listenKey })).status).toBe(200);
    await advance(50 * MINUTE, socket);
    await advance(1 * MINUTE, socket);
    await socket.roundTrip(1);
    expect(socket.closed).toBeUndefined();
    expect(socket.of('listenKeyExpired')).toEqual([]);
  });

  // The in-memory store announces every removal within the process; only Redis can lose one.
  (redisUrl ? it : it.skip)(
    'ends the sockets of a key removed without an announcement (a lost Redis message) within a minute',
    async () => {
      const listenKey = (await stream('POST')).body.listenKey;
      const socket = await connect(listenKey);
      const redis = new Redis(redisUrl!);
      try {
        expect(
          await redis.del(`${exchange.infrastructure.config.DATABASE_SCHEMA_PREFIX ?? ''}lk:key:${listenKey}`),
        ).toBe(1);
      } finally {
        redis.disconnect();
      }
      await advance(30_000, socket);
      expect(socket.closed).toBeUndefined();
      clock.advance(31_000);
      expect(await socket.waitForClose()).toEqual({ code: 1000, reason: 'listenKey closed' });
      expect(socket.of('listenKeyExpired')).toEqual([]);
    },
  );

  it('pings every 30 s and drops a socket that does not answer within 60 s', async () => {
    const listenKey = (await stream('POST')).body.listenKey;
    const answering = await connect(listenKey);
    const silent = await connect(listenKey, false);
    await advance(30_000, silent);
    expect(silent.closed).toBeUndefined();
    await answering.roundTrip(1);
    clock.advance(30_000);
    expect((await silent.waitForClose()).code).toBe(1006);
    await advance(30_000, answering);
    await answering.roundTrip(2);
    expect(answering.closed).toBeUndefined();
  });

  it('closes a socket at 24 hours even while its key is kept alive', async () => {
    const listenKey = (await stream('POST')).body.listenKey;
    const socket = await connect(listenKey);
    for (let step = 0; step < 28; step++) {
      await advance(50 * MINUTE, socket);
      expect((await stream('PUT', { listenKey })).status).toBe(200);
      await socket.roundTrip(step);
    }
    expect(socket.closed).toBeUndefined();
    clock.advance(40 * MINUTE);
    expect(await socket.waitForClose()).toEqual({ code: 1000, reason: 'connection lifetime of 24 hours reached' });
    const again = await connect(listenKey);
    await again.roundTrip(1);
    expect(again.closed).toBeUndefined();
  }, 60_000);
});
