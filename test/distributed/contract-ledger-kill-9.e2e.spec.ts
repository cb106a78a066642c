import type { EventLog } from '@exchange/messaging';
import {
  allContractTrades,
  engineTrades,
  openInterestGaps,
  positionSizes,
  positionSizesFromTrades,
} from '../support/contract-checks';
import { assertNothingLostOrDoubled, openRunEventLog, waitUntilSettled } from '../support/distributed-checks';
import {
  type DistributedExchange,
  distributedSuiteRuns,
  startDistributedExchange,
} from '../support/distributed-exchange';
import { createFundedUser, type TestUser } from '../support/exchange-actors';
import type { HttpAnswer } from '../support/http-client';
import { whileKilled } from '../support/kill-and-restart';
import { adminCall, signedRequest } from '../support/signed-client';
import { waitFor } from '../support/wait-for';

const suite = 'kill -9 of the ledger amid contract trading, distributed';
const runs = distributedSuiteRuns(suite);
const SWAP = 'BTC-SWAP-USDT';

type OrderAnswer = HttpAnswer<{ orderId?: string; code?: number; msg?: string }>;
type Sent = Map<string, { user: TestUser; answer: Promise<OrderAnswer> }>;

/**
 * kill -9 of the ledger process alone in the middle of a burst of crossing contract orders (opens
 * and closes) sent through the edge, then its restart; the other services run throughout. Half of
 * the burst leaves before the kill and half after it, so the kill lands mid-burst whatever the
 * timing. Afterwards: every order answered with an id, or timed out (-1007), is found by its
 * client order id; every trade the engine made is settled once on each side; positions equal
 * what each account's trades add up to, LONG sizes equal SHORT sizes; the ledger equals deciding
 * every journaled command once (margins included) and USDT adds up to the deposits.
 */
(runs ? describe : describe.skip)(suite, () => {
  let exchange: DistributedExchange;
  let log: EventLog;
  const shorts: TestUser[] = [];
  const longs: TestUser[] = [];

  const order = (user: TestUser, side: string, quantity: string, price: string, clientOrderId: string) =>
    signedRequest<{ orderId?: string; code?: number; msg?: string }>(
      exchange.edgeUrl,
      'POST',
      '/openapi/contract/v1/order',
      user.key,
      {
        query: {
          symbol: SWAP,
          side,
          quantity,
          price,
          clientOrderId,
          ...(side.endsWith('OPEN') ? { leverage: '10' } : {}),
        },
        recvWindow: 60_000,
      },
    );

  beforeAll(async () => {
    exchange = await startDistributedExchange({ env: { RATE_LIMIT_ORDERS_PER_SECOND: '100000' } });
    log = openRunEventLog(exchange);
    for (const [i, into] of [shorts, shorts, longs, longs].entries()) {
      const user = await createFundedUser(exchange.edgeUrl, exchange.adminToken);
      // A freshly started topology may answer its first commands late (-1007): retried with the same ids, as a client does.
      const deposit = () =>
        adminCall(exchange.edgeUrl, exchange.adminToken, 'POST', '/admin/v1/deposits', {
          accountId: user.mainAccountId,
          asset: 'USDT',
          amount: '1000000',
          txid: `k9-fund-${i}`,
        });
      await waitFor(async () => (await deposit()).status === 200, `deposit ${i} answered`, 120_000, 500);
      // A transfer has no client id: sent again only when refused before the ledger saw it (not after -1007).
      const transfer = () =>
        signedRequest<{ code?: number }>(exchange.edgeUrl, 'POST', '/openapi/v1/transfer', user.key, {
          query: { fromAccountType: 1, toAccountType: 3, tokenId: 'USDT', amount: '500000' },
        });
      await waitFor(async () => [200, 504].includes((await transfer()).status), `transfer ${i} sent`, 120_000, 500);
      const contractTotal = async () =>
        (
          await signedRequest<{ USDT?: { total: string } }>(
            exchange.edgeUrl,
            'GET',
            '/openapi/contract/v1/account',
            user.key,
          )
        ).body.USDT?.total;
      await waitFor(async () => (await contractTotal()) === '500000', `transfer ${i} applied`, 120_000, 500);
      into.push(user);
    }
    // Positions to close during the burst: each short and long holds 40.
    for (let i = 0; i < 2; i++) {
      expect((await order(shorts[i]!, 'SELL_OPEN', '40', '30000', `pre-s-${i}`)).body).toMatchObject({ status: 'NEW' });
      expect((await order(longs[i]!, 'BUY_OPEN', '40', '30000', `pre-l-${i}`)).body).toMatchObject({
        status: 'FILLED',
      });
    }
  }, 420_000);
  afterAll(async () => {
    await log?.close();
    await exchange?.stop();
  }, 60_000);

  /** Crossing pairs `from` to `to`: two of three open more on both sides, the third closes some of both. */
  function crossingPairs(from: number, to: number, sent: Sent, onAnswer: () => void): Promise<OrderAnswer[]> {
    const send = (user: TestUser, side: string, quantity: string, price: number, clientOrderId: string) => {
      const answer = order(user, side, quantity, String(price), clientOrderId).finally(onAnswer);
      sent.set(clientOrderId, { user, answer });
      return answer;
    };
    return Promise.all(
      Array.from({ length: to - from }, (_, k) => from + k).flatMap((i) => {
        const [short, long, step] = [shorts[i % 2]!, longs[i % 2]!, i % 5];
        return i % 3 === 2
          ? [
              send(long, 'SELL_CLOSE', '2', 30000 + step, `k9-${i}-l`),
              send(short, 'BUY_CLOSE', '2', 30002 + step, `k9-${i}-s`),
            ]
          : [
              send(short, 'SELL_OPEN', '3', 30000 + step, `k9-${i}-s`),
              send(long, 'BUY_OPEN', '3', 30002 + step, `k9-${i}-l`),
            ];
      }),
    );
  }

  it('loses and doubles no contract order, trade or margin across a kill -9 of the ledger mid-burst', async () => {
    const [ledger] = exchange.replicas('ledger');
    const sent: Sent = new Map();
    let answers = 0;
    const firstHalf = crossingPairs(0, 30, sent, () => answers++);
    await waitFor(() => answers >= 10, 'the first answers of the burst', 60_000);
    const secondHalf = await whileKilled(exchange, [ledger!], () => ({
      answers: crossingPairs(30, 60, sent, () => answers++),
    }));
    await Promise.all([firstHalf, secondHalf.answers]);
    await waitUntilSettled(exchange, log);

    // Every order answered with its id, or whose answer timed out (-1007), is there by its client id.
    const users = [...shorts, ...longs];
    let placed = 0;
    for (const [clientOrderId, { user, answer: pending }] of sent) {
      const answer = await pending;
      expect(answer.body.orderId !== undefined || typeof answer.body.code === 'number' || answer.status >= 500).toBe(
        true,
      );
      if (answer.body.orderId === undefined && answer.body.code !== -1007) continue;
      const found = await signedRequest<{ orderId?: string; code?: number }>(
        exchange.edgeUrl,
        'GET',
        '/openapi/contract/v1/getOrder',
        user.key,
        { query: { clientOrderId } },
      );
      expect({ clientOrderId, status: found.status, orderId: found.body.orderId ?? found.body.code }).toEqual({
        clientOrderId,
        status: 200,
        orderId: answer.body.orderId ?? expect.any(String),
      });
      placed++;
    }
    expect(placed).toBeGreaterThan(0);

    // Every trade the engine made, settled once on each side: its two legs are its two orders.
    const trades = await engineTrades(log, [SWAP]);
    const legs = (await Promise.all(users.map((u) => allContractTrades(exchange.edgeUrl, u)))).flat();
    const legsByTrade = new Map<string, string[]>();
    for (const leg of legs) legsByTrade.set(leg.tradeId, [...(legsByTrade.get(leg.tradeId) ?? []), leg.orderId]);
    expect([...legsByTrade.keys()].sort()).toEqual([...trades.keys()].sort());
    for (const [tradeId, trade] of trades)
      expect({ tradeId, orders: legsByTrade.get(tradeId)!.sort() }).toEqual({
        tradeId,
        orders: [trade.takerOrderId, trade.makerOrderId].sort(),
      });
    expect(trades.size).toBeGreaterThan(2);

    // Positions are what each account's trades add up to, and LONG sizes equal SHORT sizes.
    const sizes: Record<string, string>[] = [];
    for (const user of users) {
      const held = await positionSizes(exchange.edgeUrl, user);
      expect(held).toEqual(positionSizesFromTrades(await allContractTrades(exchange.edgeUrl, user)));
      sizes.push(held);
    }
    expect(openInterestGaps(sizes)).toEqual({ [SWAP]: '0' });

    // The ledger's state (margins, locks, positions) equals deciding every journaled command once; USDT adds up.
    await assertNothingLostOrDoubled(exchange, log, []);
  }, 420_000);
});
