import type { EventLog } from '@exchange/messaging';
import { assertNothingLostOrDoubled, openRunEventLog, waitUntilSettled } from '../support/distributed-checks';
import { type DistributedExchange, distributedSuiteRuns, startDistributedExchange } from '../support/distributed-exchange';
import { createFundedUser, type TestUser } from '../support/exchange-actors';
import { http, type HttpAnswer } from '../support/http-client';
import { signedRequest } from '../support/signed-client';
import { waitFor } from '../support/wait-for';

const runs = distributedSuiteRuns('kill -9 of single services in the distributed topology');

/**
 * kill -9 of one service (the matching engine, then the ledger) in the middle of a burst of
 * crossing orders sent through the edge, then a restart of that process alone. The other
 * services keep running throughout, as they would in production. Afterwards nothing may be
 * lost or doubled: no order, trade, settlement or unit of money.
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

  /** Crossing orders through the edge; resolves when all have an answer (an outcome, -1007 or -1016). */
  function burst(size: number): { done: Promise<HttpAnswer<{ orderId?: string; status?: string }>[]>; answers: () => number } {
    let count = 0;
    const order = (user: TestUser, side: string, price: number) =>
      signedRequest<{ orderId?: string; status?: string }>(exchange.edgeUrl, 'POST', '/openapi/v1/order', user.key, {
        query: { symbol: 'ETHUSDT', side, type: 'LIMIT', price: String(price), quantity: '0.5' },
        recvWindow: 60_000,
      }).finally(() => count++);
    const all = Array.from({ length: size }, (_, i) => [order(sellers[i % 2]!, 'SELL', 3000 + (i % 5)), order(buyers[i % 2]!, 'BUY', 3002 + (i % 5))]).flat();
    return { done: Promise.all(all), answers: () => count };
  }

  async function killInTheMiddleOfABurst(app: string): Promise<void> {
    const [victim] = exchange.replicas(app);
    const orders = burst(60);
    // Kill once part of the burst is through, so commands are in flight in every stage.
    await waitFor(() => orders.answers() >= 10, 'the first answers of the burst', 60_000);
    await exchange.kill(victim!);
    expect(orders.answers()).toBeLessThan(120);
    await exchange.restart(victim!);
    const answers = await orders.done;
    for (const a of answers) {
      expect([200, 503, 504]).toContain(a.status);
      if (a.status === 200) answered.push(a.body.orderId!);
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    await waitUntilSettled(exchange, log);
    await assertNothingLostOrDoubled(exchange, log, answered);
  }

  it('recovers from a kill -9 of the matching engine', async () => {
    await killInTheMiddleOfABurst('matching-engine');
  }, 240_000);

  it('recovers from a kill -9 of the ledger', async () => {
    await killInTheMiddleOfABurst('ledger');
  }, 240_000);

  it('keeps trading after both restarts', async () => {
    const maker = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { BTC: '1' });
    const taker = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { USDT: '100000' });
    const sell = await signedRequest(exchange.edgeUrl, 'POST', '/openapi/v1/order', maker.key, { query: { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '50000', quantity: '1' } });
    expect(sell).toMatchObject({ status: 200, body: { status: 'NEW' } });
    const buy = await signedRequest(exchange.edgeUrl, 'POST', '/openapi/v1/order', taker.key, { query: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '50000', quantity: '1' } });
    expect(buy).toMatchObject({ status: 200, body: { status: 'FILLED' } });
  }, 60_000);

  it('answers 503 / -1016 in the envelope at the edge while no replica of a service is up', async () => {
    const replicas = exchange.replicas('market-data');
    for (const replica of replicas) await exchange.kill(replica);
    expect(await http(exchange.edgeUrl, 'GET', '/openapi/v1/time')).toMatchObject({ status: 503, body: { code: -1016 } });
    for (const replica of replicas) await exchange.restart(replica);
    // nginx retries a failed upstream after its fail_timeout (10 s by default).
    await waitFor(async () => (await http(exchange.edgeUrl, 'GET', '/openapi/v1/time')).status === 200, 'the edge to use the restarted replicas', 30_000, 500);
  }, 120_000);
});
