import 'reflect-metadata';
import { openDataSource } from '@exchange/platform';
import { restartAndCompare } from '../../../test/support/crash-recovery';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

const SWAP = 'BTC-SWAP-USDT';

/**
 * kill -9 of the embedded exchange while the ledger partitions settle a funding interval (the
 * relay has handed the fix to every partition; some have paid, the rest have not). After a restart
 * every position paid or received that interval exactly once, and the ledger equals deciding
 * every journaled command once.
 */
describe('funding crash recovery', () => {
  const { dataDir, prefix, env } = exchangeTestBed('funding-crash', {
    MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX'),
    CONTRACT_FUNDING_INTERVAL_MS: '1000',
  });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('settles an interval exactly once across a kill -9', async () => {
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
    // Four longs and four shorts of 10 at 30000, spread over the ledger partitions by user.
    let n = 0;
    const order = (user: TestUser, side: string) =>
      signedRequest<{ status: string }>(exchange.baseUrl, 'POST', '/openapi/contract/v1/order', user.key, {
        query: { symbol: SWAP, side, price: '30000', quantity: '10', leverage: '10', clientOrderId: `f-${++n}` },
      });
    for (let i = 0; i < 4; i++) {
      expect((await order(users[i]!, 'SELL_OPEN')).body).toMatchObject({ status: 'NEW' });
      expect((await order(users[4 + i]!, 'BUY_OPEN')).body).toMatchObject({ status: 'FILLED' });
    }
    const watch = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}ledger`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    const fundingFlows = async () =>
      (
        await watch.query(
          `SELECT count(*)::int AS n FROM "${prefix}ledger".balance_flows WHERE flow_type = 'FUNDING_SETTLEMENT'`,
        )
      )[0].n as number;
    // The operator's index at each poll moves market data's event time on; an interval's end fixes a rate.
    await waitFor(
      async () => {
        await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/index-prices', { index: 'BTCIDX', price: '30000' });
        return (await fundingFlows()) > 0;
      },
      'the first funding payment',
      60_000,
      20,
    );
    await watch.destroy();
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');

    exchange = await restartAndCompare(env, ({ journaled }) => {
      // Per (account, symbol, funding time), one payment: no interval paid twice to anyone.
      const paid = new Map<string, number>();
      for (const e of journaled.values()) {
        if (e.type !== 'FundingSettled') continue;
        for (const p of e.payload.payments)
          paid.set(
            `${p.accountId}|${e.payload.symbol}|${e.payload.fundingTime}`,
            (paid.get(`${p.accountId}|${e.payload.symbol}|${e.payload.fundingTime}`) ?? 0) + 1,
          );
      }
      expect(paid.size).toBeGreaterThan(0);
      expect([...paid.values()].every((count) => count === 1)).toBe(true);
    });
  }, 180_000);
});
