import type { EventLog } from '@exchange/messaging';
import { assertNothingLostOrDoubled, openRunEventLog, waitUntilSettled } from '../support/distributed-checks';
import {
  type DistributedExchange,
  distributedSuiteRuns,
  startDistributedExchange,
} from '../support/distributed-exchange';
import { createFundedUser, freeBalance, type TestUser } from '../support/exchange-actors';
import { http, type HttpAnswer } from '../support/http-client';
import { whileKilled } from '../support/kill-and-restart';
import { adminCall, signedRequest } from '../support/signed-client';
import { waitFor } from '../support/wait-for';

const runs = distributedSuiteRuns('kill -9 of single services in the distributed topology');

/**
 * kill -9 of one service (the matching engine, then the ledger) in the middle of a burst of
 * crossing orders sent through the edge, and of the wallet amid withdrawals and deposits, then a
 * restart of that process alone. Half of each burst is sent before the kill and half after it, so
 * the kill lands mid-burst whatever the timing. The other services keep running throughout, as
 * they would in production. Afterwards nothing may be lost or doubled: no order, trade,
 * settlement or unit of money.
 */
(runs ? describe : describe.skip)('kill -9 of single services in the distributed topology', () => {
  let exchange: DistributedExchange;
  let log: EventLog;
  const sellers: TestUser[] = [];
  const buyers: TestUser[] = [];
  const answered: string[] = [];

  beforeAll(async () => {
    exchange = await startDistributedExchange({ env: { RATE_LIMIT_ORDERS_PER_SECOND: '100000' } });
    log = openRunEventLog(exchange);
    for (let i = 0; i < 2; i++) {
      sellers.push(await createFundedUser(exchange.edgeUrl, exchange.adminToken, { ETH: '1000' }));
      buyers.push(await createFundedUser(exchange.edgeUrl, exchange.adminToken, { USDT: '10000000' }));
    }
  }, 180_000);
  afterAll(async () => {
    await log?.close();
    await exchange?.stop();
  }, 60_000);

  /** Crossing order pairs `from` to `to` through the edge; each resolves with its answer (an outcome, -1007 or -1016). */
  function crossingPairs(
    from: number,
    to: number,
    onAnswer: () => void,
  ): Promise<HttpAnswer<{ orderId?: string; status?: string }>[]> {
    const order = (user: TestUser, side: string, price: number) =>
      signedRequest<{ orderId?: string; status?: string }>(exchange.edgeUrl, 'POST', '/openapi/v1/order', user.key, {
        query: { symbol: 'ETHUSDT', side, type: 'LIMIT', price: String(price), quantity: '0.5' },
        recvWindow: 60_000,
      }).finally(onAnswer);
    const pairs = Array.from({ length: to - from }, (_, k) => from + k);
    return Promise.all(
      pairs.flatMap((i) => [
        order(sellers[i % 2]!, 'SELL', 3000 + (i % 5)),
        order(buyers[i % 2]!, 'BUY', 3002 + (i % 5)),
      ]),
    );
  }

  async function killInTheMiddleOfABurst(app: string): Promise<void> {
    const [victim] = exchange.replicas(app);
    let answers = 0;
    const firstHalf = crossingPairs(0, 30, () => answers++);
    // Kill once part of the burst is through, so commands are in flight in every stage; the second
    // half leaves only after the kill, so the burst is still running when the victim dies however
    // fast the first half went. The victim restarts while the second half waits on it.
    await waitFor(() => answers >= 10, 'the first answers of the burst', 60_000);
    const secondHalf = await whileKilled(exchange, [victim!], () => ({
      answers: crossingPairs(30, 60, () => answers++),
    }));
    const all = [...(await firstHalf), ...(await secondHalf.answers)];
    for (const a of all) {
      expect([200, 503, 504]).toContain(a.status);
      if (a.status === 200) answered.push(a.body.orderId!);
    }
    expect(all.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    await waitUntilSettled(exchange, log);
    await assertNothingLostOrDoubled(exchange, log, answered);
  }

  it('recovers from a kill -9 of the matching engine', async () => {
    await killInTheMiddleOfABurst('matching-engine');
  }, 240_000);

  it('recovers from a kill -9 of the ledger', async () => {
    await killInTheMiddleOfABurst('ledger');
  }, 240_000);

  it('recovers from a kill -9 of the wallet amid withdrawals and deposits: each happens once, retried with the same ids', async () => {
    const admin = <T>(method: string, path: string, body?: unknown) =>
      adminCall<T>(exchange.edgeUrl, exchange.adminToken, method, path, body);
    const user = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { ETH: '100' });
    await admin('POST', '/admin/v1/withdrawal-addresses', {
      accountId: user.mainAccountId,
      tokenId: 'ETH',
      address: '0xkill',
    });
    // 0.5 ETH is below ETH's automatic-approval bound: each goes straight to the chain (status 5).
    const withdraw = (i: number) =>
      signedRequest<{ orderId?: string }>(exchange.edgeUrl, 'POST', '/openapi/v1/withdraw', user.key, {
        query: { tokenId: 'ETH', address: '0xkill', withdrawalQuantity: '0.5', clientOrderId: `kill-w-${i}` },
        recvWindow: 60_000,
      }).catch(() => undefined);
    const deposit = (i: number) =>
      admin('POST', '/admin/v1/deposits', {
        accountId: user.mainAccountId,
        asset: 'ETH',
        amount: '1',
        txid: `kill-d-${i}`,
      }).catch(() => undefined);
    let replies = 0;
    const send = (from: number, to: number) =>
      Promise.all(
        Array.from({ length: to - from }, (_, k) =>
          [withdraw(from + k), deposit(from + k)].map((p) => p.finally(() => replies++)),
        ).flat(),
      );
    const firstHalf = send(0, 10);
    await waitFor(() => replies >= 5, 'the first answers', 60_000);
    // The second half is sent after the kill: the wallet dies amid the requests by construction.
    const secondHalf = await whileKilled(exchange, exchange.replicas('wallet'), () => ({ replies: send(10, 20) }));
    await Promise.all([firstHalf, secondHalf.replies]);

    // What a client does after a timeout or a 5xx: the same request again, until it is answered.
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      await waitFor(async () => (await deposit(i))?.status === 200, `deposit ${i} answered`, 60_000, 500);
      let orderId: string | undefined;
      await waitFor(
        async () => Boolean((orderId = (await withdraw(i))?.body.orderId)),
        `withdrawal ${i} answered`,
        60_000,
        500,
      );
      ids.push(orderId!);
    }
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) {
      await waitFor(
        async () =>
          (await admin<{ status: number }>('POST', `/admin/v1/chain/withdrawals/${id}/confirm`)).body.status === 6,
        `withdrawal ${id} mined`,
        30_000,
        250,
      );
    }
    const withdrawals = await signedRequest<{ status: number }[]>(
      exchange.edgeUrl,
      'GET',
      '/openapi/v1/withdrawalOrders',
      user.key,
      { query: { limit: '100' } },
    );
    expect(withdrawals.body.map((w) => w.status)).toEqual(Array(20).fill(6));
    const deposits = await signedRequest<unknown[]>(exchange.edgeUrl, 'GET', '/openapi/v1/depositOrders', user.key, {
      query: { limit: '100' },
    });
    // The funding deposit and the 20, each credited once.
    expect(deposits.body).toHaveLength(21);
    // 100 + 20 × 1 − 20 × (0.5 + 0.005 fee)
    await waitFor(
      async () => (await freeBalance(exchange.edgeUrl, user, 'ETH')) === '109.90000000',
      'the balance after every deposit and withdrawal',
      30_000,
    );
    await waitUntilSettled(exchange, log);
    await assertNothingLostOrDoubled(exchange, log, answered);
  }, 240_000);

  it('keeps trading after the restarts', async () => {
    const maker = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { BTC: '1' });
    const taker = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { USDT: '100000' });
    const sell = await signedRequest(exchange.edgeUrl, 'POST', '/openapi/v1/order', maker.key, {
      query: { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '50000', quantity: '1' },
    });
    expect(sell).toMatchObject({ status: 200, body: { status: 'NEW' } });
    const buy = await signedRequest(exchange.edgeUrl, 'POST', '/openapi/v1/order', taker.key, {
      query: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '50000', quantity: '1' },
    });
    expect(buy).toMatchObject({ status: 200, body: { status: 'FILLED' } });
  }, 60_000);

  it('answers 503 / -1016 in the envelope at the edge while no replica of a service is up', async () => {
    await whileKilled(exchange, exchange.replicas('market-data'), async () => {
      expect(await http(exchange.edgeUrl, 'GET', '/openapi/v1/time')).toMatchObject({
        status: 503,
        body: { code: -1016 },
      });
    });
    // nginx retries a failed upstream after its fail_timeout (10 s by default).
    await waitFor(
      async () => (await http(exchange.edgeUrl, 'GET', '/openapi/v1/time')).status === 200,
      'the edge to use the restarted replicas',
      30_000,
      500,
    );
  }, 120_000);
});
