import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@exchange/bootstrap';
import { ManualClock } from '@exchange/platform';
import { UserStreamModule } from '@exchange/user-stream';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { type Frame, StreamClient } from '../../../test/support/stream-client';
import { realServiceAddress } from '../../../test/support/real-services';
import { startTestExchange, type TestExchange, type TestExchangeOptions } from '../../../test/support/test-exchange';

// Waits on a shared machine and a real broker can pass Jest's default 5 s; each wait has its own deadline.
jest.setTimeout(60_000);

type Json = Record<string, unknown>;

/** Every key of spec 6.2 and the extra ones of API-DECISIONS.md. */
const reportKeys = [
  'e',
  'E',
  's',
  'c',
  'S',
  'o',
  'f',
  'q',
  'p',
  'X',
  'i',
  'l',
  'z',
  'L',
  'n',
  'N',
  'u',
  'w',
  'm',
  'O',
  'Z',
  'x',
  't',
  'T',
  'r',
  'C',
].sort();

/** E never goes back; one event's executionReport and outboundAccountInfo share it, in that order; other frames move it forward. */
function expectEventTimeOrder(frames: Frame[]): void {
  const stream = frames.filter((f) => f.e !== undefined);
  for (let i = 1; i < stream.length; i++) {
    const [before, after] = [stream[i - 1]!, stream[i]!];
    if (after.E === before.E) expect([before.e, after.e]).toEqual(['executionReport', 'outboundAccountInfo']);
    else expect(after.E).toBeGreaterThan(before.E!);
  }
}

const kafka = realServiceAddress('KAFKA_BROKERS', 'user data stream over Kafka');
const redis = realServiceAddress('REDIS_URL', 'user data stream with listenKeys in Redis');
const setups: [string, TestExchangeOptions][] = [
  ['the embedded default (embedded log, listenKeys in memory)', { env: { REDIS_URL: '' } }],
];
if (kafka && redis) setups.push(['Kafka and Redis', { onKafkaWhenAvailable: true }]);

describe.each(setups)(
  'user data stream on %s: executionReport and outboundAccountInfo over a real ws client',
  (_name, setup) => {
    const clock = new ManualClock(Date.now());
    let exchange: TestExchange;
    /** A second user-stream replica on the same event log and listenKey store. */
    let replica: NestFastifyApplication;
    let replicaUrl: string;
    let maker: TestUser;
    let taker: TestUser;
    const clients: StreamClient[] = [];
    let token: string;

    const call = <T = Json>(
      user: TestUser,
      method: string,
      path: string,
      query: Record<string, string | number> = {},
    ) => signedRequest<T>(exchange.baseUrl, method, path, user.key, { timestamp: clock.now(), query });
    const listenKeyOf = async (user: TestUser): Promise<string> =>
      (await call<{ listenKey: string }>(user, 'POST', '/openapi/v1/userDataStream')).body.listenKey;
    const connect = async (baseUrl: string, listenKey: string): Promise<StreamClient> => {
      const client = await StreamClient.connect(baseUrl, listenKey);
      clients.push(client);
      return client;
    };
    const order = async (user: TestUser, query: Record<string, string>): Promise<string> => {
      const answer = await call<{ orderId: string }>(user, 'POST', '/openapi/v1/order', query);
      expect(answer.status).toBe(200);
      return answer.body.orderId;
    };

    beforeAll(async () => {
      exchange = await startTestExchange({ ...setup, clock });
      token = exchange.infrastructure.config.ADMIN_TOKEN!;
      replica = await createApp(exchange.infrastructure, [UserStreamModule]);
      await replica.listen(0, '127.0.0.1');
      replicaUrl = (await replica.getUrl()).replace('[::1]', '127.0.0.1');
      maker = await createFundedUser(exchange.baseUrl, token, { BTC: '2' });
      taker = await createFundedUser(exchange.baseUrl, token, { USDT: '200000' });
    });
    afterAll(async () => {
      for (const c of clients) c.close();
      await replica.close();
      await exchange.close();
    });

    it('refuses malformed paths, keys of the wrong length and unknown keys with an HTTP error and no stream', async () => {
      expect(await StreamClient.refusal(exchange.baseUrl, '/openapi/ws/')).toEqual({
        status: 404,
        body: { code: -1020, msg: expect.any(String) },
      });
      expect(await StreamClient.refusal(exchange.baseUrl, `/openapi/ws/${'a'.repeat(60)}/more`)).toMatchObject({
        status: 404,
        body: { code: -1020 },
      });
      expect(await StreamClient.refusal(exchange.baseUrl, '/openapi/ws/short')).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await StreamClient.refusal(exchange.baseUrl, `/openapi/ws/${'a'.repeat(61)}`)).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await StreamClient.refusal(exchange.baseUrl, `/openapi/ws/${'%20'.repeat(20)}`)).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      expect(await StreamClient.refusal(replicaUrl, `/openapi/ws/${'a'.repeat(60)}`)).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
    });

    it('reports a resting order as NEW with its reservation, a partial fill and the fill with cumulative values, on two replicas alike', async () => {
      const makerKey = await listenKeyOf(maker);
      const [onMain, onReplica] = [await connect(exchange.baseUrl, makerKey), await connect(replicaUrl, makerKey)];
      const takerStream = await connect(exchange.baseUrl, await listenKeyOf(taker));

      const sellId = await order(maker, {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        price: '60000',
        quantity: '1',
        newClientOrderId: 'us-sell-1',
      });
      await onMain.waitForFrames(
        'the NEW report and the reservation',
        (f) => f.filter((x) => x.e !== undefined).length >= 2,
      );
      const [report, info] = onMain.frames;
      expect(Object.keys(report!).sort()).toEqual(reportKeys);
      expect(report).toEqual({
        e: 'executionReport',
        E: expect.any(Number),
        s: 'BTCUSDT',
        c: 'us-sell-1',
        S: 'SELL',
        o: 'LIMIT',
        f: 'GTC',
        q: '1',
        p: '60000',
        X: 'NEW',
        i: sellId,
        l: '0',
        z: '0',
        L: '0',
        n: '0',
        N: null,
        u: true,
        w: false,
        m: false,
        O: expect.any(Number),
        Z: '0',
        x: 'NEW',
        t: '-1',
        T: expect.any(Number),
        r: 0,
        C: '',
      });
      expect(info).toEqual({
        e: 'outboundAccountInfo',
        E: report!.E,
        T: true,
        W: true,
        D: true,
        B: [{ a: 'BTC', f: '1.00000000', l: '1.00000000' }],
      });

      const buyId = await order(taker, {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: '61000',
        quantity: '0.4',
      });
      await onMain.waitForFrames('the partial fill', (f) => f.some((x) => x.x === 'PARTIALLY_FILLED'));
      const partial = onMain.reportsOf(sellId).find((r) => r.x === 'PARTIALLY_FILLED')!;
      expect(partial).toMatchObject({
        X: 'PARTIALLY_FILLED',
        l: '0.4',
        L: '60000',
        z: '0.4',
        Z: '24000',
        m: true,
        n: '24',
        N: 'USDT',
        t: expect.stringMatching(/^\d+$/),
        r: 0,
      });

      await order(taker, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.6' });
      await onMain.waitForFrames('the fill', (f) => f.some((x) => x.x === 'FILLED'));
      await onReplica.waitForFrames('the fill on the other replica', (f) => f.some((x) => x.x === 'FILLED'));
      await onMain.waitForFrames(
        'the balances after the fill',
        (f) => f.filter((x) => x.e === 'outboundAccountInfo').length >= 3,
      );
      const fill = onMain.reportsOf(sellId).find((r) => r.x === 'FILLED')!;
      expect(fill).toMatchObject({
        X: 'FILLED',
        l: '0.6',
        L: '60000',
        z: '1',
        Z: '60000',
        m: true,
        n: '36',
        N: 'USDT',
      });
      expect(onMain.reportsOf(sellId).map((r) => r.x)).toEqual(['NEW', 'PARTIALLY_FILLED', 'FILLED']);
      expect(onMain.of('outboundAccountInfo').at(-1)).toMatchObject({
        B: expect.arrayContaining([
          { a: 'BTC', f: '1.00000000', l: '0.00000000' },
          { a: 'USDT', f: '59940.00000000', l: '0.00000000' },
        ]),
      });
      expect(onReplica.frames).toEqual(onMain.frames);
      expectEventTimeOrder(onMain.frames);

      // The taker's order filled at once: NEW, then one FILLED report carrying the trade (no second FILLED from the outcome).
      await takerStream.waitForFrames("the taker's fill", (f) => f.some((x) => x.i === buyId && x.x === 'FILLED'));
      expect(takerStream.reportsOf(buyId).map((r) => [r.x, r.z, r.l, r.m])).toEqual([
        ['NEW', '0', '0', false],
        ['FILLED', '0.4', '0.4', false],
      ]);
      expectEventTimeOrder(takerStream.frames);
    });

    it('reports a cancel with C, then the released funds', async () => {
      const stream = await connect(exchange.baseUrl, await listenKeyOf(taker));
      const id = await order(taker, {
        symbol: 'ETHUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: '1000',
        quantity: '1',
        newClientOrderId: 'us-cancel-1',
      });
      expect(
        (await call(taker, 'DELETE', '/openapi/v1/order', { origClientOrderId: 'us-cancel-1' })).body,
      ).toMatchObject({ status: 'CANCELED' });
      await stream.waitForFrames('the CANCELED report', (f) => f.some((x) => x.i === id && x.x === 'CANCELED'));
      expect(stream.reportsOf(id).at(-1)).toMatchObject({
        x: 'CANCELED',
        X: 'CANCELED',
        c: 'us-cancel-1',
        C: 'us-cancel-1',
        w: false,
        r: 0,
      });
      await stream.waitForFrames('the released USDT', (f) => f.at(-1)?.e === 'outboundAccountInfo');
      expect(stream.frames.at(-1)).toMatchObject({ B: [{ a: 'USDT', f: expect.any(String), l: '0.00000000' }] });
    });

    it('reports a LIMIT_MAKER that would take as REJECTED with r = -2010', async () => {
      const stream = await connect(exchange.baseUrl, await listenKeyOf(taker));
      await order(maker, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '62000', quantity: '0.1' });
      const answer = await call(taker, 'POST', '/openapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT_MAKER',
        price: '62000',
        quantity: '0.1',
        newClientOrderId: 'us-lm-2',
      });
      expect(answer.body).toMatchObject({ code: -2010 });
      await stream.waitForFrames('the REJECTED report', (f) => f.some((x) => x.c === 'us-lm-2' && x.x === 'REJECTED'));
      expect(stream.frames.filter((x) => x.c === 'us-lm-2').map((r) => [r.x, r.X, r.r])).toEqual([
        ['NEW', 'NEW', 0],
        ['REJECTED', 'REJECTED', -2010],
      ]);
    });

    it('sends outboundAccountInfo for deposits and flag changes, to every socket of every key of the account', async () => {
      const second = await adminCall<{ apiKey: string; secretKey: string }>(
        exchange.baseUrl,
        token,
        'POST',
        '/admin/v1/api-keys',
        { accountId: maker.mainAccountId, permissions: ['read'] },
      );
      const other = { ...maker, key: { apiKey: second.body.apiKey, secretKey: second.body.secretKey } };
      const firstKey = await listenKeyOf(maker);
      const secondKey = await listenKeyOf(other);
      expect(secondKey).not.toBe(firstKey);
      const sockets = [
        await connect(exchange.baseUrl, firstKey),
        await connect(exchange.baseUrl, firstKey),
        await connect(replicaUrl, secondKey),
      ];
      expect(
        (
          await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/deposits', {
            accountId: maker.mainAccountId,
            asset: 'ETH',
            amount: '3',
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await adminCall(exchange.baseUrl, token, 'POST', `/admin/v1/accounts/${maker.mainAccountId}/flags`, {
            canWithdraw: false,
          })
        ).status,
      ).toBe(200);
      for (const socket of sockets) {
        await socket.waitForFrames('the deposit and the flags', (f) => f.length >= 2);
        expect(socket.frames).toEqual([
          {
            e: 'outboundAccountInfo',
            E: expect.any(Number),
            T: true,
            W: true,
            D: true,
            B: [{ a: 'ETH', f: '3.00000000', l: '0.00000000' }],
          },
          { e: 'outboundAccountInfo', E: expect.any(Number), T: true, W: false, D: true, B: [] },
        ]);
      }
      expect(sockets[1]!.frames).toEqual(sockets[0]!.frames);
    });

    it('follows a withdrawal: the hold moves funds to locked, the success debits them, a refusal returns them', async () => {
      const user = await createFundedUser(exchange.baseUrl, token, { BTC: '1' });
      await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/withdrawal-addresses', {
        accountId: user.mainAccountId,
        tokenId: 'BTC',
        address: 'bc1qstream',
      });
      const stream = await connect(exchange.baseUrl, await listenKeyOf(user));
      const btc = () =>
        stream
          .of('outboundAccountInfo')
          .flatMap((f) => f.B as { a: string; f: string; l: string }[])
          .filter((b) => b.a === 'BTC');
      const withdraw = (clientOrderId: string, withdrawalQuantity: string) =>
        call<{ orderId: string }>(user, 'POST', '/openapi/v1/withdraw', {
          tokenId: 'BTC',
          address: 'bc1qstream',
          withdrawalQuantity,
          clientOrderId,
        });

      // 0.05 BTC is below the automatic-approval bound: held, then the chain confirms it.
      const small = await withdraw('s-1', '0.05');
      expect(small.status).toBe(200);
      await stream.waitForFrames('the hold', () => btc().some((b) => b.f === '0.94950000' && b.l === '0.05050000'));
      await adminCall(exchange.baseUrl, token, 'POST', `/admin/v1/chain/withdrawals/${small.body.orderId}/confirm`);
      await stream.waitForFrames('the debit', () => btc().some((b) => b.f === '0.94950000' && b.l === '0.00000000'));

      // 0.5 BTC waits for the broker's audit; rejected there, the hold comes back.
      const large = await withdraw('s-2', '0.5');
      await stream.waitForFrames('the second hold', () =>
        btc().some((b) => b.f === '0.44900000' && b.l === '0.50050000'),
      );
      await adminCall(exchange.baseUrl, token, 'POST', `/admin/v1/withdrawals/${large.body.orderId}/reject`, {});
      await stream.waitForFrames(
        'the release',
        () => btc().at(-1)?.f === '0.94950000' && btc().at(-1)?.l === '0.00000000',
      );
      expectEventTimeOrder(stream.frames);
    });

    it('ends the streams of a revoked API key on every replica and opens no new one', async () => {
      const created = await adminCall<{ apiKey: string; secretKey: string }>(
        exchange.baseUrl,
        token,
        'POST',
        '/admin/v1/api-keys',
        { accountId: maker.mainAccountId, permissions: ['read'] },
      );
      const revokedUser = { ...maker, key: { apiKey: created.body.apiKey, secretKey: created.body.secretKey } };
      const listenKey = await listenKeyOf(revokedUser);
      const sockets = [await connect(exchange.baseUrl, listenKey), await connect(replicaUrl, listenKey)];
      const bystander = await connect(exchange.baseUrl, await listenKeyOf(maker));
      expect(
        (await adminCall(exchange.baseUrl, token, 'DELETE', `/admin/v1/api-keys/${created.body.apiKey}`)).status,
      ).toBe(200);
      for (const socket of sockets)
        expect(await socket.waitForClose()).toEqual({ code: 1000, reason: 'API key revoked' });
      expect(await StreamClient.refusal(replicaUrl, `/openapi/ws/${listenKey}`)).toMatchObject({
        status: 401,
        body: { code: -2015 },
      });
      await bystander.roundTrip(2);
      expect(bystander.closed).toBeUndefined();
    });

    it('answers a client ping with a pong', async () => {
      const stream = await connect(exchange.baseUrl, await listenKeyOf(maker));
      await stream.roundTrip(1234);
      expect(stream.frames).toEqual([{ pong: 1234 }]);
    });

    it("closes every socket of a key on every replica when it is DELETEd, and no other key's", async () => {
      const listenKey = await listenKeyOf(taker);
      const doomed = [await connect(exchange.baseUrl, listenKey), await connect(replicaUrl, listenKey)];
      const bystander = await connect(replicaUrl, await listenKeyOf(maker));
      expect((await call(taker, 'DELETE', '/openapi/v1/userDataStream', { listenKey })).status).toBe(200);
      for (const socket of doomed)
        expect(await socket.waitForClose()).toEqual({ code: 1000, reason: 'listenKey closed' });
      expect(await StreamClient.refusal(exchange.baseUrl, `/openapi/ws/${listenKey}`)).toMatchObject({
        status: 400,
        body: { code: -1125 },
      });
      await bystander.roundTrip(1);
      expect(bystander.closed).toBeUndefined();
    });
  },
);
