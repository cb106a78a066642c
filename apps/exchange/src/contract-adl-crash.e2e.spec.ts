import 'reflect-metadata';
import Decimal from 'decimal.js';
import { restartAndCompare } from '../../../test/support/crash-recovery';
import { createContractTraders, type TestUser } from '../../../test/support/exchange-actors';
import {
  adminTokenOnceReady,
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  waitUntilServing,
} from '../../../test/support/exchange-process';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

const SWAP = 'BTC-SWAP-USDT';
type Json = Record<string, unknown>;

/**
 * kill -9 of the embedded exchange during auto-deleveraging across ledger partitions: with an empty
 * insurance fund one gap of the index takes four longs (20×, margin 15, bankrupt at 28500) below
 * their bankruptcy price; each long's partition takes it into its fund share and runs an ADL with
 * the other partitions over ledger.commands. The process dies at the first long taken, a restart
 * finishes every ADL, and after a second kill and restart each long was taken once, losing exactly
 * its margin, each ADL was requested, answered by every other partition, resolved and applied once,
 * and the ledger equals deciding every journaled command once.
 */
describe('auto-deleveraging crash recovery', () => {
  const { dataDir, env } = exchangeTestBed('adl-crash', { MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX') });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('runs each ADL exactly once across a kill -9', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const users = await createContractTraders(exchange.baseUrl, token, 8);
    const [shorts, longs] = [users.slice(0, 4), users.slice(4)];
    let n = 0;
    const order = (user: TestUser, side: string, quantity: string, price: string, leverage: string) =>
      signedRequest<{ status: string }>(exchange.baseUrl, 'POST', '/openapi/contract/v1/order', user.key, {
        query: { symbol: SWAP, side, price, quantity, clientOrderId: `a-${++n}`, leverage },
      });
    const feed = (baseUrl: string, price: string) =>
      adminCall(baseUrl, token, 'POST', '/admin/v1/index-prices', { index: 'BTCIDX', price });
    await feed(exchange.baseUrl, '30000');
    for (let i = 0; i < 4; i++) {
      expect((await order(shorts[i]!, 'SELL_OPEN', '10', '30000', '1')).body).toMatchObject({ status: 'NEW' });
      expect((await order(longs[i]!, 'BUY_OPEN', '10', '30000', '20')).body).toMatchObject({ status: 'FILLED' });
    }

    const positionsOf = async (user: TestUser, baseUrl: string) =>
      (
        await signedRequest<Json[]>(baseUrl, 'GET', '/openapi/contract/v1/positions', user.key, {
          query: { symbol: SWAP },
        })
      ).body;
    const taken = async (baseUrl: string) => {
      let count = 0;
      for (const user of longs) {
        const long = (await positionsOf(user, baseUrl)).find((p) => p.side === 'LONG');
        if (['0', undefined].includes(long?.position as string | undefined)) count++;
      }
      return count;
    };
    // The index alternates between two prices under 28500 (market data publishes a mark only when it changes).
    let feeds = 0;
    const fall = (baseUrl: string) => feed(baseUrl, ++feeds % 2 === 0 ? '28000' : '27990');
    await waitFor(
      async () => {
        await fall(exchange.baseUrl);
        return (await taken(exchange.baseUrl)) > 0;
      },
      'the first long taken',
      60_000,
      20,
    );
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');

    // A restart finishes: every long taken, and no short still reserved (available = size).
    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    const settled = async (baseUrl: string) => {
      if ((await taken(baseUrl)) < 4) return false;
      for (const user of shorts)
        for (const p of await positionsOf(user, baseUrl))
          if (p.side === 'SHORT' && !new Decimal(p.position as string).eq(p.available as string)) return false;
      return true;
    };
    await waitFor(
      async () => {
        await fall(exchange.baseUrl);
        return settled(exchange.baseUrl);
      },
      'every ADL finished',
      60_000,
      50,
    );
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');

    exchange = await restartAndCompare(env, ({ journaled, recovered }) => {
      const count = new Map<string, number>();
      const seen = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
      const losses: string[] = [];
      let adlTaken = new Decimal(0);
      for (const e of journaled.values()) {
        if (e.type === 'PositionLiquidated' || e.type === 'PositionDeleveraged') losses.push(e.payload.loss);
        if (e.type === 'AdlRequested') seen(`requested|${e.payload.adlId}`);
        if (e.type === 'AdlCandidatesReserved') seen(`answered|${e.payload.adlId}|${e.payload.from}`);
        if (e.type === 'AdlCandidatesReceived') seen(`received|${e.payload.adlId}|${e.payload.from}`);
        if (e.type === 'AdlApplied') seen(`applied|${e.payload.adlId}|${e.payload.fundAccountId}`);
        if (e.type === 'AdlResolved') {
          seen(`resolved|${e.payload.adlId}`);
          adlTaken = adlTaken.plus(e.payload.taken);
        }
      }
      // Each long once, losing exactly its margin: 10 × 0.001 × 30000 / 20.
      expect(losses).toEqual(['15', '15', '15', '15']);
      const kinds = [...count.keys()].map((k) => k.slice(0, k.indexOf('|')));
      expect([...count.values()].every((c) => c === 1)).toBe(true);
      // Four ADLs, in as many rounds as contention took: each asked of the seven other partitions and applied in all eight.
      const rounds = kinds.filter((x) => x === 'requested').length;
      expect([...count.keys()].filter((k) => k.startsWith('requested|') && !k.includes('#'))).toHaveLength(4);
      expect(['resolved', 'answered', 'received', 'applied'].map((k) => kinds.filter((x) => x === k).length)).toEqual([
        rounds,
        7 * rounds,
        7 * rounds,
        8 * rounds,
      ]);
      // The ADLs took the four longs whole (the shorts hold as much); LONG and SHORT sizes stay equal.
      let [long, short, funds] = [new Decimal(0), new Decimal(0), new Decimal(0)];
      for (const p of recovered.contracts.positions.values()) {
        if (p.side === 'LONG') long = long.plus(p.size.toFixed());
        else short = short.plus(p.size.toFixed());
        if (p.side === 'LONG' && Number(p.accountId) < 200) funds = funds.plus(p.size.toFixed());
      }
      expect(long.toFixed()).toBe(short.toFixed());
      expect(adlTaken.toFixed()).toBe('40');
      expect(funds.toFixed()).toBe('0');
    });
  }, 300_000);
});
