import 'reflect-metadata';
import type { LedgerState } from '@exchange/ledger';
import { openDataSource } from '@exchange/platform';
import { restartAndCompare } from '../../../test/support/crash-recovery';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

/** Per contract symbol, LONG sizes minus SHORT sizes: zero for every symbol when positions pair up. */
function openInterestGaps(state: LedgerState): Record<string, string> {
  const gaps: Record<string, number> = {};
  for (const p of state.contracts.positions.values())
    gaps[p.symbol] = (gaps[p.symbol] ?? 0) + (p.side === 'LONG' ? 1 : -1) * p.size.toNumber();
  return Object.fromEntries(Object.entries(gaps).map(([symbol, gap]) => [symbol, String(gap)]));
}

/**
 * kill -9 of the whole embedded exchange in the middle of a burst of crossing contract orders.
 * After a restart: no order.events id twice, the ledger (contracts fold included) equal to deciding
 * every journaled command once, longs equal to shorts per symbol, and USDT that adds up to the
 * deposits with every contracts account's free, locked and position margin counted.
 */
describe('contract trading crash recovery', () => {
  const { dataDir, prefix, env } = exchangeTestBed('contract-crash', {
    RATE_LIMIT_ORDERS_PER_SECOND: '100000',
  });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('recovers positions and margins exactly, nothing lost or doubled', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const users: TestUser[] = [];
    for (let i = 0; i < 4; i++) {
      const user = await createFundedUser(exchange.baseUrl, token, { USDT: '1000000' });
      const moved = await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', user.key, {
        query: { fromAccountType: 1, toAccountType: 3, tokenId: 'USDT', amount: '500000' },
      });
      expect(moved.body).toEqual({ success: 'true' });
      users.push(user);
    }
    let answered = 0;
    let n = 0;
    const order = (user: TestUser, side: string, price: string) =>
      signedRequest(exchange.baseUrl, 'POST', '/openapi/contract/v1/order', user.key, {
        query: { symbol: 'BTC-SWAP-USDT', side, price, quantity: '3', leverage: '10', clientOrderId: `burst-${++n}` },
      })
        .then(() => void answered++)
        .catch(() => undefined);
    const burst = Array.from({ length: 60 }, (_, i) => [
      order(users[i % 2]!, 'SELL_OPEN', String(30000 + (i % 5))),
      order(users[2 + (i % 2)]!, 'BUY_OPEN', String(30002 + (i % 5))),
    ]).flat();
    await waitFor(() => answered >= 10, 'the first answers of the burst', 60_000);
    const watch = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}ledger`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    await waitFor(
      async () => (await watch.query(`SELECT count(*)::int AS n FROM "${prefix}ledger".contract_trades`))[0].n > 0,
      'the first contract trade',
      30_000,
      10,
    );
    await watch.destroy();
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');
    await Promise.all(burst);

    exchange = await restartAndCompare(env, ({ journaled, recovered }) => {
      expect(openInterestGaps(recovered)).toEqual({ 'BTC-SWAP-USDT': '0' });
      expect([...journaled.values()].filter((e) => e.type === 'ContractOrderFilled').length).toBeGreaterThan(0);
    });
  }, 180_000);
});
