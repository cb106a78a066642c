import 'reflect-metadata';
import { restartAndCompare } from '../../../test/support/crash-recovery';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  waitUntilServing,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

const SWAP = 'BTC-SWAP-USDT';
type Json = Record<string, unknown>;

/**
 * kill -9 of the embedded exchange during a liquidation cascade: one fall of the operator's index
 * crosses four longs (20×, margin 15 each), two of them with a close order resting on the book, so
 * their takeover waits for the engine's cancel. The process dies as soon as the first is liquidated,
 * a restart finishes the cascade, and after a second kill and restart each long was liquidated (or
 * deleveraged) exactly once, losing exactly its margin, and the ledger equals deciding every
 * journaled command once.
 */
describe('liquidation crash recovery', () => {
  const { dataDir, env } = exchangeTestBed('liquidation-crash', {
    MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX'),
  });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('liquidates each position of a cascade exactly once across a kill -9', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i++) {
      const user = await createFundedUser(exchange.baseUrl, token, { USDT: '100000' });
      expect(
        (
          await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', user.key, {
            query: { fromAccountType: 1, toAccountType: 3, tokenId: 'USDT', amount: '10000' },
          })
        ).body,
      ).toEqual({ success: 'true' });
      users.push(user);
    }
    await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/insurance-fund', { amount: '10000' });
    const [shorts, longs] = [users.slice(0, 4), users.slice(4)];
    let n = 0;
    const order = (user: TestUser, side: string, quantity: string, price: string, leverage?: string) =>
      signedRequest<{ status: string; orderId: string }>(
        exchange.baseUrl,
        'POST',
        '/openapi/contract/v1/order',
        user.key,
        {
          query: { symbol: SWAP, side, price, quantity, clientOrderId: `l-${++n}`, ...(leverage ? { leverage } : {}) },
        },
      );
    // Four longs of 10 at 30000, 20× (flp about 28643), against fully collateralised shorts.
    for (let i = 0; i < 4; i++) {
      expect((await order(shorts[i]!, 'SELL_OPEN', '10', '30000', '1')).body).toMatchObject({ status: 'NEW' });
      expect((await order(longs[i]!, 'BUY_OPEN', '10', '30000', '20')).body).toMatchObject({ status: 'FILLED' });
    }
    const resting: string[] = [];
    for (const user of longs.slice(0, 2)) {
      const { body } = await order(user, 'SELL_CLOSE', '5', '40000');
      expect(body).toMatchObject({ status: 'NEW' });
      resting.push(body.orderId);
    }

    const longOf = async (user: TestUser, baseUrl: string) =>
      (
        await signedRequest<Json[]>(baseUrl, 'GET', '/openapi/contract/v1/positions', user.key, {
          query: { symbol: SWAP },
        })
      ).body.find((p) => p.side === 'LONG');
    const liquidatedCount = async (baseUrl: string) => {
      let count = 0;
      for (const user of longs)
        if (['0', undefined].includes((await longOf(user, baseUrl))?.position as string | undefined)) count++;
      return count;
    };
    // The index falls to about 28000 and wavers there: market data publishes a mark only when it
    // changes, and a takeover waiting for the engine's cancels happens at a later mark. Kill -9 at the first liquidation.
    let feeds = 0;
    const feed = (baseUrl: string) =>
      adminCall(baseUrl, token, 'POST', '/admin/v1/index-prices', {
        index: 'BTCIDX',
        price: ++feeds % 2 === 0 ? '28000' : '27990',
      });
    await waitFor(
      async () => {
        await feed(exchange.baseUrl);
        return (await liquidatedCount(exchange.baseUrl)) > 0;
      },
      'the first liquidation',
      60_000,
      20,
    );
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');

    // A restart finishes the cascade (the orders' cancels reach the engine, later marks take over).
    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    await waitFor(
      async () => {
        await feed(exchange.baseUrl);
        return (await liquidatedCount(exchange.baseUrl)) === 4;
      },
      'every long liquidated',
      60_000,
      50,
    );
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');

    exchange = await restartAndCompare(env, ({ journaled }) => {
      const taken = new Map<string, string[]>();
      const ended = new Map<string, number>();
      for (const e of journaled.values()) {
        if (e.type === 'PositionLiquidated' || e.type === 'PositionDeleveraged') {
          const key = `${e.payload.accountId}|${e.payload.side}`;
          taken.set(key, [...(taken.get(key) ?? []), e.payload.loss]);
        }
        if (e.type === 'ContractOrderEnded' && resting.includes(e.payload.order.orderId))
          ended.set(e.payload.order.orderId, (ended.get(e.payload.order.orderId) ?? 0) + 1);
      }
      // Each long once, losing exactly its margin: 10 × 0.001 × 30000 / 20.
      expect([...taken.values()]).toEqual([['15'], ['15'], ['15'], ['15']]);
      expect([...taken.keys()].every((key) => key.endsWith('|LONG'))).toBe(true);
      // The resting close orders were canceled by the engine, once each, before their positions were taken.
      expect(resting.map((id) => ended.get(id))).toEqual([1, 1]);
    });
  }, 300_000);
});
